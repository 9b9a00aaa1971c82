// A fuzz campaign finds a deliberately planted allocator bug within 1,000 runs and the shrinker
// reduces it to at most 2 engines and 4 instructions, keeping the failure (GitHub issue 6).
#include <doctest/doctest.h>

#include "formats/text_format.h"
#include "fuzz/campaign.h"
#include "planted_bugs.h"

using namespace syncbisim;

namespace {

void caught_and_shrunk(const fuzz::AllocateFn& buggy, std::uint64_t seed) {
  fuzz::CampaignOptions o;
  o.seed = seed;
  o.runs = 1000;
  o.specs = fuzz::SpecMix::Allocatable;
  o.max_failures = 1;
  const auto r = fuzz::run_campaign(buggy, o);
  REQUIRE_MESSAGE(r.failures == 1, "no failure in ", r.runs, " runs");
  const auto& f = r.failed.front();
  REQUIRE(f.shrunk);
  const auto& s = *f.shrunk;
  INFO("run ", f.run, ": ", f.what, "\n", formats::write_text(s.spec), "\n", formats::write_text(s.impl));
  MESSAGE("run ", f.run, ": ", f.what, ", shrunk from ", s.before.to_string(), " to ", s.after.to_string(), " in ",
          s.steps, " steps, ", s.seconds, " s");
  CHECK(s.stopped.empty());
  CHECK(s.after.engines <= 2);
  CHECK(s.after.instructions <= 4);
  // The minimized case still shows the same failure with the same buggy allocator.
  const auto ix = model::ProgramIndex::build(s.spec);
  REQUIRE(ix.ok());
  const auto reply = buggy(s.spec, *ix);
  const auto* impl = fuzz::impl_of(reply);
  REQUIRE(impl);
  fuzz::CaseOptions co;
  co.policy = fuzz::Counts::AllOnAllocatable;
  CHECK(fuzz::check_case(s.spec, *impl, co, &std::get<fuzz::ViolationAt>(s.failure)).target_shown);
  // And the real allocator is exact on it.
  const auto good_reply = fuzz::allocate_with(allocator::Strategy::PerLoop)(s.spec, *ix);
  const auto* good = fuzz::impl_of(good_reply);
  REQUIRE(good);
  const auto g = fuzz::check_case(s.spec, *good, co);
  CHECK(!g.failure);
}

}  // namespace

TEST_CASE("planted bug r_P - k + 1 is found and shrunk") { caught_and_shrunk(test::off_by_one_offset(), 1); }

TEST_CASE("planted bug: the mask dropped for offsets >= 1 is found and shrunk") {
  caught_and_shrunk(test::dropped_mask(), 1);
}

TEST_CASE("the real per-loop allocator passes the same campaign prefix") {
  fuzz::CampaignOptions o;
  o.seed = 1;
  o.runs = 300;
  o.specs = fuzz::SpecMix::Allocatable;
  const auto r = fuzz::run_campaign(fuzz::allocate_with(allocator::Strategy::PerLoop), o);
  CHECK(r.failures == 0);
  CHECK(r.passed + r.inconclusive == r.runs);
}
