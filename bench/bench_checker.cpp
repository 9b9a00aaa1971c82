// The checker on a kernel-sized program (docs/checker.md "Performance"): product states per second and
// bytes per stored state, with and without reductions, and the reduction factor.
// Usage: bench_checker [SPEC [STRATEGY [SECONDS [THREADS [tree]]]]] (default: corpus/kernels/stress_5engine.json,
// per-loop, 60 s cap for the unreduced search, 0 skips it; THREADS a comma-separated list of thread
// counts to run each search with, default 1, e.g. 1,2 for the scaling figures of docs/checker.md).
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
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

}  // namespace

int main(int argc, char** argv) {
  const std::string spec_path = argc > 1 ? argv[1] : SYNCBISIM_SOURCE_DIR "/corpus/kernels/stress_5engine.json";
  const auto strategy = allocator::parse_strategy(argc > 2 ? argv[2] : "per-loop");
  const double seconds = argc > 3 ? std::stod(argv[3]) : 60.0;
  auto spec = formats::load_program_file(spec_path, model::ProgramKind::Spec);
  if (!spec || !strategy) {
    std::fprintf(stderr, "usage: bench_checker [SPEC [STRATEGY [SECONDS]]]\n");
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
  std::vector<unsigned> threads;
  {
    std::istringstream list(argc > 4 ? argv[4] : "1");
    for (std::string t; std::getline(list, t, ',');) threads.push_back(static_cast<unsigned>(std::stoul(t)));
  }
  // A fifth argument `tree` keeps the visited set as trees (CheckOptions::state_store, checker/tree_states.h).
  const bool compress = argc > 5 && std::string(argv[5]) == "tree";
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
