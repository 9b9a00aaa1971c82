// Fuzzing speed (GitHub issue 6): allocate + check runs per second for each strategy at the
// campaign's default sizes on one core, and the time to shrink a failing 40-instruction program.
// Usage: bench_fuzz [RUNS] (default 2000 per strategy).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/campaign.h"
#include "generators/mutations.h"
#include "model/index.h"

using namespace syncbisim;

namespace {

void runs_per_second(std::uint64_t runs) {
  for (auto strategy : allocator::all_strategies()) {
    fuzz::CampaignOptions o;
    o.seed = 1;
    o.runs = runs;
    o.exact = strategy != allocator::Strategy::Barrier;
    const auto r = fuzz::run_campaign(fuzz::allocate_with(strategy), o);
    std::printf("%-16s %8.1f runs/s  (%llu runs, %llu inconclusive, %llu failures, %.2f s)\n",
                allocator::to_string(strategy), r.runs / r.seconds, (unsigned long long)r.runs,
                (unsigned long long)r.inconclusive, (unsigned long long)r.failures, r.seconds);
  }
}

// The first campaign spec with at least `n` instructions whose per-loop allocation, with one
// wait dropped, is under-synchronized.
bool failing_program(std::size_t n, model::Program& spec, model::Program& impl, std::string& what) {
  fuzz::CaseOptions co;
  co.policy = fuzz::Counts::All;
  for (std::uint64_t r = 0; r < 100000; ++r) {
    auto rs = fuzz::spec_for_run(1, r, fuzz::SpecMix::Allocatable, 100);
    if (fuzz::size_of(rs.spec).instructions < n) continue;
    const auto ix = model::ProgramIndex::build(rs.spec);
    const auto reply = fuzz::allocate_with(allocator::Strategy::PerLoop)(rs.spec, *ix);
    const auto* good = fuzz::impl_of(reply);
    if (!good) continue;
    for (auto& m : generators::mutants(*good)) {
      if (m.mutation.kind != generators::MutationKind::DropWait) continue;
      const auto c = fuzz::check_case(rs.spec, m.impl, co);
      if (c.failure && c.failure->kind == checker::ViolationKind::UnderSync && c.check.exhaustive) {
        spec = rs.spec;
        impl = std::move(m.impl);
        what = "run " + std::to_string(r) + ", " + m.mutation.to_string();
        return true;
      }
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t runs = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000;
  std::printf("allocate + check, campaign defaults (mixed specs, max-states 20000), one core:\n");
  runs_per_second(runs);

  model::Program spec, impl;
  std::string what;
  if (!failing_program(40, spec, impl, what)) {
    std::printf("no 40-instruction failing program found\n");
    return 1;
  }
  fuzz::ShrinkOptions o;
  o.check.policy = fuzz::Counts::All;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = fuzz::shrink(spec, fuzz::GivenImpl{impl}, std::nullopt, o);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r) {
    std::printf("shrink failed: %s\n", r.error().message.c_str());
    return 1;
  }
  std::printf("shrink (%s): %s\n  %s -> %s\n  %llu candidates, %llu kept, %llu cache hits, %.2f s\n", what.c_str(),
              fuzz::to_string(r->failure).c_str(), r->before.to_string().c_str(), r->after.to_string().c_str(),
              (unsigned long long)r->steps, (unsigned long long)r->accepted, (unsigned long long)r->cache_hits, secs);
  return 0;
}
