// The checker on a kernel-sized program (docs/checker.md "Performance"): product states per second and
// bytes per stored state, with and without reductions, and the reduction factor.
// Usage: bench_checker [SPEC [STRATEGY [SECONDS [THREADS [STORE]]]]] (default: corpus/kernels/stress_5engine.json,
// per-loop, 60 s cap for the unreduced search, 0 skips it; THREADS a comma-separated list of thread
// counts to run each search with, default 1, e.g. 1,2 for the scaling figures of docs/checker.md;
// STORE flat or tree). --help says the same.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "cli/number_options.h"
#include "formats/load.h"

using namespace syncbisim;

namespace {

checker::CheckResult run(const formats::LoadedProgram& spec, const model::Program& impl, bool reduce, double seconds,
                         unsigned threads, bool compress) {
  auto pair = checker::ProgramPair::make(spec.program, impl, semantics::Options{reduce});
  if (!pair) {
    std::fprintf(stderr, "%s\n", pair.error().to_string().c_str());
    std::exit(2);
  }
  const auto& both = (*pair)->lockstep();
  checker::CheckOptions o;
  o.reduction = reduce;
  o.max_seconds = seconds;
  o.threads = threads;
  o.state_store = compress ? checker::StateStore::Tree : checker::StateStore::Flat;
  return checker::check(both, o);
}

void print(const char* name, unsigned threads, const checker::CheckResult& r) {
  std::printf("%-13s %2u thr %-18s %s %10llu states %11llu transitions %8.2f s %10.0f states/s %6.1f bytes/state\n",
              name, threads, checker::to_string(r.verdict), r.exhaustive ? "complete" : "partial ",
              static_cast<unsigned long long>(r.states), static_cast<unsigned long long>(r.transitions), r.seconds,
              r.states / r.seconds, static_cast<double>(r.bytes) / static_cast<double>(r.states));
}

// "1,2" as {1, 2}; empty if any item is not a whole number from 1 to 1024.
std::vector<unsigned> threads_of(const std::string& list) {
  std::vector<unsigned> out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    unsigned t = 0;
    const char* first = list.data() + at;
    const char* last = list.data() + comma;
    const auto r = std::from_chars(first, last, t);
    if (first == last || r.ec != std::errc() || r.ptr != last || t < 1 || t > 1024) return {};
    out.push_back(t);
    if (comma == list.size()) return out;
    at = comma + 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string spec_path = SYNCBISIM_SOURCE_DIR "/corpus/kernels/stress_5engine.json", strategy_name = "per-loop";
  double seconds = 60.0;
  std::string thread_list = "1";
  std::string store = "flat";
  CLI::App app{"The checker on a kernel-sized program: states per second and bytes per state"};
  app.add_option("SPEC", spec_path, "spec program")->check(CLI::ExistingFile)->capture_default_str();
  app.add_option("STRATEGY", strategy_name, "allocation strategy")->capture_default_str();
  app.add_option("SECONDS", seconds, "cap of the unreduced search (0: the reduced one only)")
      ->check(cli::seconds())
      ->capture_default_str();
  app.add_option("THREADS", thread_list, "thread counts to run each search with, comma-separated (1,2)")
      ->check(CLI::Validator(
          [](const std::string& v) { return threads_of(v).empty() ? "must be thread counts from 1, as 1,2" : ""; }, "",
          "threads"))
      ->capture_default_str();
  // The visited set as trees (CheckOptions::state_store, statespace/tree_states.h).
  app.add_option("STORE", store, "state store")->check(CLI::IsMember({"flat", "tree"}))->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const auto strategy = allocator::parse_strategy(strategy_name);
  auto spec = formats::load_program_file(spec_path, model::ProgramKind::Spec);
  if (!strategy) {
    std::fprintf(stderr, "unknown strategy '%s'\n", strategy_name.c_str());
    return 2;
  }
  if (!spec) {
    std::fprintf(stderr, "%s\n", spec.error().to_string().c_str());
    return 2;
  }
  auto alloc = allocator::allocate(spec->program, spec->index, allocator::Options{*strategy, false});
  if (!alloc) {
    std::fprintf(stderr, "%s\n", alloc.error().to_string().c_str());
    return 2;
  }
  std::printf("%s, %s: %zu engines, %zu instructions, %zu dependencies\n", spec_path.c_str(),
              allocator::to_string(*strategy), spec->program.engines.size(), spec->index.instrs.size(),
              spec->program.deps.size());
  const std::vector<unsigned> threads = threads_of(thread_list);
  const bool compress = store == "tree";
  checker::CheckResult reduced, full;
  for (const unsigned t : threads) {
    reduced = run(*spec, alloc->impl, true, seconds, t, compress);
    print("reduced", t, reduced);
  }
  if (seconds <= 0) return 0;  // the reduced search only
  for (const unsigned t : threads) {
    full = run(*spec, alloc->impl, false, seconds, t, compress);
    print("no-reduction", t, full);
  }
  std::printf("reduction factor: %s%.1fx fewer states\n", full.exhaustive ? "" : "at least ",
              static_cast<double>(full.states) / static_cast<double>(reduced.states));
  return 0;
}
