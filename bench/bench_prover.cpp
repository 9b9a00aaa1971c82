// The prover on every corpus kernel (docs/prover.md "Figures"): seconds for all of a kernel's
// queries (safe and exact of every consumer) for every allocation strategy, with the consumers
// proved, refuted and unknown; then the deep refutation: a wait wrong only at iteration 100,000
// of a 1..100,000 loop, found, replayed by a directed run and rendered (head and tail, and the
// whole trace as --trace-out writes it).
// Usage: bench_prover [REPEATS] [--no-overflow] (default 3; best of). --no-overflow leaves the
// overflow questions out (docs/prover.md "Overflow"), to measure what they cost.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "prover/prove.h"
#include "prover/report.h"

using namespace syncbisim;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Timing {
  double seconds = 1e9;
  std::size_t consumers = 0, proved = 0, refuted = 0, unknown = 0;
  std::size_t overflow_open = 0;  // overflow questions not proved
};

Timing time_prove(const formats::LoadedProgram& spec, const model::Program& impl, int repeats,
                  const prover::ProveOptions& options) {
  Timing t;
  auto iix = model::ProgramIndex::build(impl);
  if (!iix) return t;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    const auto r = prover::prove(spec.program, spec.index, impl, *iix, options);
    t.seconds = std::min(t.seconds, since(start));
    t.consumers = r.consumers.size();
    t.proved = t.refuted = t.unknown = 0;
    for (const auto& c : r.consumers) {
      t.proved += c.answer == prover::Answer::Proved;
      t.refuted += c.answer == prover::Answer::Refuted;
      t.unknown += c.answer == prover::Answer::Unknown;
    }
    t.overflow_open = 0;
    for (const auto& o : r.overflows) t.overflow_open += o.answer != prover::Answer::Proved;
  }
  return t;
}

model::Program read(const char* text) {
  auto p = formats::read_text(text);
  model::normalize(*p);
  return *p;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::stoi(argv[1]) : 3;
  prover::ProveOptions options;
  options.overflow = !(argc > 2 && std::string(argv[2]) == "--no-overflow");
  std::vector<std::filesystem::path> kernels;
  for (const auto& e : std::filesystem::directory_iterator(SYNCBISIM_SOURCE_DIR "/corpus/kernels"))
    kernels.push_back(e.path());
  std::sort(kernels.begin(), kernels.end());
  std::printf("%-24s %-16s %9s %7s %8s %8s %9s\n", "kernel", "strategy", "consumers", "proved", "refuted", "unknown",
              "seconds");
  std::size_t unknown = 0;
  double worst = 0;
  for (const auto& k : kernels) {
    auto spec = formats::load_program_file(k.string(), model::ProgramKind::Spec);
    if (!spec) continue;
    for (auto s : {allocator::Strategy::Barrier, allocator::Strategy::PerInstruction, allocator::Strategy::PerLoop,
                   allocator::Strategy::PerEngine, allocator::Strategy::Auto}) {
      allocator::Options o{s, false};
      o.licm = false;  // the prover does not read hoisted registers (docs/allocator.md)
      auto alloc = allocator::allocate(spec->program, spec->index, o);
      if (!alloc) continue;
      const auto t = time_prove(*spec, alloc->impl, repeats, options);
      unknown += t.unknown + t.overflow_open;
      worst = std::max(worst, t.seconds);
      std::printf("%-24s %-16s %9zu %7zu %8zu %8zu %9.4f\n", k.stem().string().c_str(), allocator::to_string(s),
                  t.consumers, t.proved, t.refuted, t.unknown, t.seconds);
    }
  }
  std::printf("unknown consumers and overflow questions not proved: %zu; slowest kernel: %.4f s\n\n", unknown, worst);

  // The deep refutation: wrong only at iteration 100,000.
  const auto spec_p =
      read("syncbisim spec/1\nengines E0 E1\nloop A trip 1..100000 {\n  E0: P\n  E1: C\n}\ndep P -> C distance A=1\n");
  const auto impl_p = read(
      "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE1: [rh := 0]\nloop A {\n  E0: P {s += 1}\n"
      "  E1: [r := r + 1] [rh := rh + 1] [w := isgt(rh, 1) * isgt(100000, rh) * (r - 1)] {s >= w} C\n}\n");
  auto six = model::ProgramIndex::build(spec_p);
  auto iix = model::ProgramIndex::build(impl_p);
  if (!six || !iix) return 1;
  double best = 1e9, render = 1e9, trace_out = 1e9;
  std::size_t steps = 0, bytes = 0;
  std::string answer;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    const auto r = prover::prove(spec_p, *six, impl_p, *iix, options);
    best = std::min(best, since(start));
    const auto& c = r.consumers.at(0);
    answer = std::string(prover::to_string(c.safe.answer)) + " / " + c.safe.reason;
    if (!c.safe.witness) continue;
    steps = c.safe.witness->trace.size();
    const auto t1 = Clock::now();
    const auto text = prover::render_text(r);
    render = std::min(render, since(t1));
    const auto t2 = Clock::now();
    bytes = prover::traces_json(r).size();
    trace_out = std::min(trace_out, since(t2));
  }
  std::printf("deep refutation (A in 1..100000, wrong at iteration 100000): %s\n", answer.c_str());
  std::printf("  prove (query, constant-trip search, directed run): %.3f s, witness of %zu steps\n", best, steps);
  std::printf("  terminal rendering (head and tail): %.3f s; whole trace as JSON: %.3f s, %.1f MB\n", render, trace_out,
              bytes / 1e6);
  return 0;
}
