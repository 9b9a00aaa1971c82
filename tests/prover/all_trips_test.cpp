// One verdict for every trip count (check --all-trips): when the prover and the explorer at
// bounded trips each have their say.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include "allocator/allocate.h"
#include "generators/describe.h"
#include "prover/all_trips.h"
#include "prover/prove_support.h"
#include "support/generated_pairs.h"
#include "support/rapidcheck_doctest.h"

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

// Gives some loops the rule per_engine(E: 1..4; default 1..4): capped at 1, every engine runs one
// iteration; past the cap they may run different numbers.
void diverge_past_cap(std::vector<model::Stmt>& body, const std::string& engine) {
  for (auto& stmt : body) {
    if (auto* loop = std::get_if<model::Loop>(&stmt.node)) {
      if (*rc::gen::inRange(0, 2) == 0)
        loop->trip = model::TripRule{model::RangeTrip{1, 4}, {{engine, model::RangeTrip{1, 4}}}, true};
      diverge_past_cap(loop->body, engine);
    } else if (auto* cond = std::get_if<model::Cond>(&stmt.node)) {
      diverge_past_cap(cond->then_body, engine);
      diverge_past_cap(cond->else_body, engine);
    }
  }
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

TEST_CASE("check --all-trips: a spec that deadlocks only past the trip cap is inconclusive, not bisimilar") {
  // E1 waits for P three iterations back, but E0 may run fewer iterations than E1 (a per-engine
  // rule, paper §7.5): at trips 1 and 5 the spec deadlocks; at trips up to 3 it never does.
  const auto spec = test::load_inline(
      "syncbisim spec/1\nengines E0 E1\nloop L trip per_engine(E0: 1..5; default 1..5) {\n  E0: P\n  E1: C\n}\n"
      "dep P -> C distance L=3\n");
  auto alloc = allocator::allocate(spec.program, spec.index, allocator::Options{allocator::Strategy::PerLoop, false});
  REQUIRE(alloc.ok());
  prover::ProveResult proved;
  const auto capped = verdict_of(spec, alloc->impl, 3, proved);
  CHECK(proved.verdict == prover::Answer::Proved);
  CHECK(proved.may_deadlock.find("per-engine rule") != std::string::npos);
  CHECK(!capped.all_trip_counts);
  CHECK(capped.verdict == Verdict::Inconclusive);
  REQUIRE(!capped.not_proved.empty());
  CHECK(capped.not_proved.back().find("deadlock freedom past the trip cap: the spec: ") == 0);
  const auto whole = verdict_of(spec, alloc->impl, 5, proved);
  CHECK(whole.verdict == Verdict::SpecDeadlock);
}

TEST_CASE("check --all-trips: never claims the opposite of check at a concrete trip (property)") {
  // Random specs with conds, per-engine rules and cyclic dependencies, allocated (now and then
  // mutated); `check` explores every trip the rules allow (trips up to 4), `--all-trips` caps them
  // at 1. Bisimilar for all trip counts must mean check finds bisimilar, and a violation from
  // --all-trips must be one check finds too.
  int compared = 0, past_cap = 0;
  test::rc_check("all-trips vs check at every trip", [&] {
    generators::SpecGenOptions o{.max_engines = 3, .max_trip = 4, .max_top_stmts = 3, .max_body_stmts = 2,
                                 .max_deps = 4, .extras = false};
    auto program = *generators::gen_spec(o);
    // Per-engine rules that agree at the cap (every engine runs one iteration there) and longer
    // distances, now and then, so that some deadlocks need more iterations than the cap.
    diverge_past_cap(program.body, program.engines.front());
    for (auto& d : program.deps) {
      const auto factor = *rc::gen::inRange<std::uint32_t>(1, 4);
      for (auto& [loop, k] : d.distance) k *= factor;
    }
    auto ix = model::ProgramIndex::build(program);
    RC_PRE(ix.ok());
    const formats::LoadedProgram spec{std::move(program), std::move(*ix)};
    const auto impl = test::gen_allocation(spec, 1.0 / 4).impl;
    auto whole = checker::ProgramPair::make(spec.program, impl, checker::PairOptions{{}, 4});
    RC_ASSERT(whole.ok());
    RC_PRE((*whole)->cut().empty());
    const auto concrete = checker::check((*whole)->lockstep(), checker::CheckOptions{.reduction = true, .max_states = 300000});
    RC_PRE(concrete.exhaustive);
    prover::ProveResult proved;
    const auto v = verdict_of(spec, impl, 1, proved);
    ++compared;
    past_cap += concrete.verdict == Verdict::SpecDeadlock && v.verdict != Verdict::SpecDeadlock;
    const bool agree = concrete.verdict == Verdict::Bisimilar
                           ? v.verdict == Verdict::Bisimilar || v.verdict == Verdict::Inconclusive
                           : !v.all_trip_counts && v.verdict != Verdict::Bisimilar;
    if (!agree)
      RC_FAIL(std::string("check: ") + checker::to_string(concrete.verdict) + ", --all-trips: " +
              checker::to_string(v.verdict) + (v.all_trip_counts ? " for all trip counts" : "") + "\nspec:\n" +
              generators::describe(spec.program) + "\nimpl:\n" + generators::describe(impl));
  }, 400);
  CHECK(compared > 0);
  MESSAGE(compared, " pairs compared; ", past_cap, " with a spec deadlock only past the cap");
}
