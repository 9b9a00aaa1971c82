// Campaigns with several jobs give the same result as one job for the same seed; an interrupted
// campaign keeps everything it found; refusals are counted apart (docs/fuzzing.md).
#include <doctest/doctest.h>

#include <atomic>
#include <set>

#include "formats/json_format.h"
#include "fuzz/campaign.h"
#include "planted_bugs.h"

using namespace syncbisim;

namespace {

fuzz::CampaignOptions options(unsigned jobs) {
  fuzz::CampaignOptions o;
  o.seed = 11;
  o.runs = 400;
  o.specs = fuzz::SpecMix::Allocatable;
  o.jobs = jobs;
  o.shrink.max_seconds = 0;  // only the step budget: shrinking does not depend on speed
  return o;
}

// Everything of a result but its timing.
std::string digest(const fuzz::CampaignResult& r) {
  std::string s = std::to_string(r.runs) + " " + std::to_string(r.passed) + " " + std::to_string(r.failures) + " " +
                  std::to_string(r.declined) + " " + std::to_string(r.inconclusive) + " " + std::to_string(r.skipped);
  for (const auto& f : r.failed) {
    s += "\n" + std::to_string(f.run) + " " + f.what + "\n" + formats::write_json(f.written_spec()) +
         formats::write_json(f.written_impl());
  }
  for (const auto& n : r.declines) s += "\nd" + std::to_string(n.run) + n.why;
  for (const auto& n : r.inconclusive_runs) s += "\ni" + std::to_string(n.run) + n.why;
  return s;
}

// Declines every spec with a non-zero distance; allocates the rest per loop.
fuzz::AllocateFn picky() {
  return [](const model::Program& spec, const model::ProgramIndex& ix) {
    for (const auto& d : spec.deps)
      for (const auto& [loop, k] : d.distance)
        if (k > 0) return fuzz::AllocatorReply{fuzz::Declined{"no loop-carried dependencies"}, "", "", 0, false};
    return fuzz::allocate_with(allocator::Strategy::PerLoop)(spec, ix);
  };
}

}  // namespace

TEST_CASE("three jobs give exactly the result of one job") {
  const auto buggy = test::dropped_mask();
  const auto one = fuzz::run_campaign(buggy, options(1));
  const auto three = fuzz::run_campaign(buggy, options(3));
  REQUIRE(one.failures > 0);
  CHECK(digest(one) == digest(three));
}

TEST_CASE("with a failure limit, several jobs stop at the same run as one job") {
  auto o1 = options(1), o3 = options(3);
  o1.max_failures = o3.max_failures = 2;
  std::vector<std::uint64_t> seen1, seen3;
  o1.on_failure = [&](const fuzz::RunFailure& f) { seen1.push_back(f.run); };
  o3.on_failure = [&](const fuzz::RunFailure& f) { seen3.push_back(f.run); };
  const auto buggy = test::off_by_one_offset();
  const auto one = fuzz::run_campaign(buggy, o1);
  const auto three = fuzz::run_campaign(buggy, o3);
  REQUIRE(one.failures == 2);
  CHECK(digest(one) == digest(three));
  // Failures reach the caller in run order, as they become final.
  CHECK(seen1 == std::vector<std::uint64_t>{one.failed[0].run, one.failed[1].run});
  CHECK(seen3 == seen1);
}

TEST_CASE("an interrupted campaign keeps every run it finished and reports each failure found") {
  std::atomic<bool> stop{false};
  std::atomic<int> calls{0};
  const auto buggy = test::dropped_mask();
  // Ctrl-C after some allocations (shrinking allocates too).
  const fuzz::AllocateFn interrupting = [&](const model::Program& spec, const model::ProgramIndex& ix) {
    if (++calls == 150) stop = true;
    return buggy(spec, ix);
  };
  auto o = options(2);
  o.runs = 100000;
  o.stop = &stop;
  std::set<std::uint64_t> reported;
  o.on_failure = [&](const fuzz::RunFailure& f) { reported.insert(f.run); };
  const auto r = fuzz::run_campaign(interrupting, o);
  CHECK(r.interrupted);
  CHECK(r.runs < 1000);
  CHECK(r.runs == r.passed + r.failures + r.declined + r.inconclusive + r.skipped);
  REQUIRE(r.failures > 0);
  for (const auto& f : r.failed) {
    CHECK(reported.count(f.run) == 1);
    // Each one is a real failure of the buggy allocator, whether or not its shrinking finished.
    const auto ix = model::ProgramIndex::build(f.written_spec());
    REQUIRE(ix.ok());
    fuzz::JudgeOptions j;
    j.check.policy = fuzz::Counts::AllOnAllocatable;
    CHECK(fuzz::allocate_and_check(buggy, f.written_spec(), *ix, j).failure == f.failure);
  }
}

TEST_CASE("refusals are counted apart, and are failures only when asked") {
  auto o = options(2);
  o.runs = 200;
  o.specs = fuzz::SpecMix::Mixed;
  const auto r = fuzz::run_campaign(picky(), o);
  CHECK(r.declined > 0);
  CHECK(r.failures == 0);
  REQUIRE(!r.declines.empty());
  CHECK(r.declines.front().why == "no loop-carried dependencies");
  o.declined_is_failure = true;
  o.max_failures = 1;
  const auto strict = fuzz::run_campaign(picky(), o);
  REQUIRE(strict.failures == 1);
  CHECK(strict.failed.front().failure == fuzz::Failure{fuzz::AllocatorFault::Declined});
  CHECK(strict.failed.front().run == r.declines.front().run);
  // Shrunk to a spec the allocator still declines: one dependency with a distance.
  REQUIRE(strict.failed.front().shrunk);
  CHECK(strict.failed.front().shrunk->after.dependencies == 1);
}
