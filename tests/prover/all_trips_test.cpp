// One verdict for every trip count (check --all-trips): when the prover and the explorer at
// bounded trips each have their say.
#include <doctest/doctest.h>

#include "prover/all_trips.h"
#include "prover/prove_support.h"

using namespace syncbisim;
using checker::Verdict;

namespace {

prover::AllTripsVerdict verdict_of(const formats::LoadedProgram& spec, const model::Program& impl, std::uint32_t cap,
                                   prover::ProveResult& proved) {
  proved = test::prove_pair(spec, impl);
  auto pair = checker::ProgramPair::make(spec.program, impl, checker::PairOptions{{}, cap});
  REQUIRE(pair.ok());
  const bool capped = !(*pair)->cut().empty();
  static checker::CheckResult explored;  // the verdict points into `proved` only
  explored = checker::check((*pair)->lockstep(), checker::CheckOptions{});
  return prover::all_trips_verdict(proved, explored, capped);
}

}  // namespace

TEST_CASE("check --all-trips: bisimilar for all trip counts only when every consumer is proved") {
  const auto spec = test::load_corpus("corpus/kernels/flash_attention.json", model::ProgramKind::Spec);
  const auto impl = test::load_corpus("corpus/good/flash_attention_per_engine.impl.sb", model::ProgramKind::Impl);
  prover::ProveResult proved;
  const auto v = verdict_of(spec, impl.program, 3, proved);
  CHECK(v.all_trip_counts);
  CHECK(v.verdict == Verdict::Bisimilar);
  CHECK(v.not_proved.empty());
}

TEST_CASE("check --all-trips: a refutation the bounded exploration misses is the verdict, with the prover's witness") {
  const auto spec = test::offset_one_spec(100);
  const auto impl = test::offset_one_impl("isgt(rh, 1) * isgt(50, rh)");
  prover::ProveResult proved;
  const auto v = verdict_of(spec, impl.program, 3, proved);
  CHECK(v.verdict == Verdict::UnderSynchronized);
  CHECK(v.from_prover);
  REQUIRE(v.property);
  REQUIRE(v.property->witness);
  CHECK(v.property->witness->kind == "under-sync");
  CHECK(!v.all_trip_counts);
}

TEST_CASE("check --all-trips: the explorer's violation is the verdict when it finds one") {
  const auto spec = test::load_corpus("corpus/figures/fig7_fig8.json", model::ProgramKind::Spec);
  const auto impl = test::load_corpus("corpus/bugs/fig8_nk_off_by_one.sb", model::ProgramKind::Impl);
  prover::ProveResult proved;
  const auto v = verdict_of(spec, impl.program, 3, proved);
  CHECK(v.verdict == Verdict::UnderSynchronized);
  CHECK(!v.from_prover);
  CHECK(v.not_proved.size() == 1);
}

TEST_CASE("check --all-trips: with a consumer not proved, the bounded verdict, naming it") {
  const auto spec = test::offset_one_spec(100);
  // Correct, but outside what the prover follows (the file says why).
  const auto impl = test::load_input("sum_mask.impl.sb", model::ProgramKind::Impl);
  prover::ProveResult proved;
  const auto capped = verdict_of(spec, impl.program, 3, proved);
  CHECK(!capped.all_trip_counts);
  CHECK(capped.verdict == Verdict::Inconclusive);
  // The consumer, then d's overflow question: d sums 1 + 2 + ... + 100000, past a 32-bit
  // register, and its self-reading assignment is outside what the prover follows (unknown).
  REQUIRE(capped.not_proved.size() == 2);
  CHECK(capped.not_proved[0].find("C (E1)") == 0);
  CHECK(capped.not_proved[0].find("register d") != std::string::npos);
  CHECK(capped.not_proved[1].find("unknown: register d (E1)") == 0);
  // No range cut: the exploration covers every trip count the rules allow, yet the verdict says
  // only what it is, bisimilar at those trips.
  const auto whole = verdict_of(spec, impl.program, 100, proved);
  CHECK(!whole.all_trip_counts);
  CHECK(whole.verdict == Verdict::Bisimilar);
}
