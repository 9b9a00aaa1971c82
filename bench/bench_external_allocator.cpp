// An allocator as a command (GitHub issue 11): the process overhead per run beyond the
// allocator's own time, and the campaign's runs per second with one and two jobs.
//
// Usage: bench_external_allocator [RUNS [COMMAND...]] (run from the source tree)
//   default: 500 runs on the campaign's allocatable specs (seed 1) of two Python allocators:
//   bench/allocators/lookup.py, trivial (it answers with the per-instruction impl this benchmark
//   stored for each spec beforehand: Python's start and the protocol are all it costs), and
//   examples/allocators/per_instruction.py (a real one), each with and without `python3 -S`.
//
// The allocator's own time is that of the same program started directly (posix_spawn, the spec
// file as stdin, stdout to /dev/null, no shell); the overhead is what a call through
// fuzz::command_allocator takes beyond it: the shell of the protocol (/bin/sh -c), the spec file,
// the pipes, the reading and parsing of the impl.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/json_format.h"
#include "fuzz/campaign.h"
#include "fuzz/command_allocator.h"
#include "model/index.h"

extern char** environ;

using namespace syncbisim;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The allocator alone: argv run directly with `spec_path` as stdin and stdout to /dev/null.
double run_direct(const std::vector<std::string>& argv, const std::string& spec_path) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, spec_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  const auto t0 = Clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ) != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  const double s = since(t0);
  posix_spawn_file_actions_destroy(&fa);
  return s;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s) {
    if (c == ' ') {
      if (!w.empty()) out.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::uint32_t crc32(const std::string& s) {  // zlib's CRC-32, as lookup.py computes it
  std::uint32_t c = 0xffffffffu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

void measure(const std::string& command, const std::vector<model::Program>& specs,
             const std::vector<std::string>& files, std::uint64_t runs) {
  const auto argv_direct = words(command);
  fuzz::CommandOptions co;
  co.command = command;
  const auto allocate = fuzz::command_allocator(co);
  std::vector<double> direct, through, overhead;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const double d = run_direct(argv_direct, files[i]);
    const auto ix = model::ProgramIndex::build(specs[i]);
    const auto t0 = Clock::now();
    const auto reply = allocate(specs[i], *ix);
    const double t = since(t0);
    direct.push_back(d);
    through.push_back(t);
    overhead.push_back(t - d);
  }
  std::printf("allocator: %s (%zu specs)\n", command.c_str(), specs.size());
  std::printf("  alone (posix_spawn, no shell)     median %.2f ms\n", median(direct) * 1e3);
  std::printf("  through the allocator protocol    median %.2f ms\n", median(through) * 1e3);
  std::printf("  process overhead per run          median %.2f ms\n", median(overhead) * 1e3);
  for (unsigned jobs : {1u, 2u}) {
    fuzz::CampaignOptions o;
    o.seed = 1;
    o.runs = runs;
    o.specs = fuzz::SpecMix::Allocatable;
    o.jobs = jobs;
    const auto r = fuzz::run_campaign(allocate, o);
    std::printf("  fuzz --jobs %u: %7.1f runs/s  (%llu runs, %llu failures, %llu declined, %.2f s)\n", jobs,
                r.runs / r.seconds, static_cast<unsigned long long>(r.runs),
                static_cast<unsigned long long>(r.failures), static_cast<unsigned long long>(r.declined), r.seconds);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t runs = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 500;
  // The same specs the campaign draws (shard 0/1, seed 1), each written to a file for the direct
  // runs, with its per-instruction impl stored by CRC-32 for lookup.py.
  std::vector<model::Program> specs;
  for (std::uint64_t r = 0; r < runs; ++r) {
    try {
      specs.push_back(fuzz::spec_for_run(1, r, fuzz::SpecMix::Allocatable, 100).spec);
    } catch (const std::exception&) {}
  }
  char dir_template[] = "/tmp/sb-bench-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  std::vector<std::string> files;
  const auto write = [](const std::string& path, const std::string& text) {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  };
  const auto per_instruction = fuzz::allocate_with(allocator::Strategy::PerInstruction);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto text = formats::write_json(specs[i]);
    files.push_back(dir + "/s" + std::to_string(i) + ".json");
    write(files.back(), text);
    const auto ix = model::ProgramIndex::build(specs[i]);
    const auto reply = per_instruction(specs[i], *ix);
    char name[32];
    std::snprintf(name, sizeof name, "/%08x.json", crc32(text));
    if (const auto* impl = fuzz::impl_of(reply)) write(dir + name, formats::write_json(*impl));
  }
  std::vector<std::string> commands;
  for (int a = 2; a < argc; ++a) commands.push_back(argv[a]);
  if (commands.empty())
    for (const char* py : {"/usr/bin/python3", "/usr/bin/python3 -S"}) {
      commands.push_back(std::string(py) + " bench/allocators/lookup.py " + dir);
      commands.push_back(std::string(py) + " examples/allocators/per_instruction.py");
    }
  for (const auto& c : commands) measure(c, specs, files, runs);
  std::filesystem::remove_all(dir);
  return 0;
}
