// The price of an over-synchronization (latency/price.h): the impl against the exact per-loop
// allocation of the same spec on the timing model.
#include <doctest/doctest.h>

#include "formats/load.h"
#include "latency/price.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

formats::LoadedProgram load(const std::string& rel) {
  auto r = formats::load_program_file((test::source_dir() / rel).string());
  REQUIRE_MESSAGE(r.ok(), r.error().to_string());
  return std::move(*r);
}

}  // namespace

TEST_CASE("price: Figure 1's barriers cost cycles against the exact allocation") {
  const auto spec = load("corpus/figures/fig1_motivating.json");
  const auto impl = load("corpus/good/fig1_barrier.impl.sb");
  const auto p = latency::price_over_synchronization(spec.program, spec.index, impl.program, impl.index);
  REQUIRE(p.available);
  CHECK(p.impl_makespan > p.exact_makespan);
  CHECK(p.cycles() == static_cast<std::int64_t>(p.impl_makespan - p.exact_makespan));
  CHECK_FALSE(p.impl_deadlocks);
  CHECK(latency::price_text(p).find("cycles (impl ") != std::string::npos);
  CHECK(latency::price_json(p)["cycles"] == p.cycles());
}

TEST_CASE("price: an impl that deadlocks on the timing model says so") {
  const auto spec = load("corpus/figures/fig7_fig8.json");
  const auto impl = load("corpus/bugs/fig7_missing_signal.sb");
  const auto p = latency::price_over_synchronization(spec.program, spec.index, impl.program, impl.index);
  REQUIRE(p.available);
  CHECK(p.impl_deadlocks);
  CHECK(latency::price_text(p).find("deadlocks") != std::string::npos);
}

TEST_CASE("price: no exact allocation, no price") {
  const auto spec = load("corpus/nonallocatable/mixed_fallback.json");
  const auto impl = load("corpus/good/mixed_fallback.impl.sb");
  const auto p = latency::price_over_synchronization(spec.program, spec.index, impl.program, impl.index);
  CHECK_FALSE(p.available);
  CHECK(p.why_not.find("not allocatable") != std::string::npos);
}
