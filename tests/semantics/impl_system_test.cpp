// The implementation system: waits, signals, register operations, barriers (docs/semantics.md §4),
// and the wait values of the paper's Figures 3, 7 and 8 step by step.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "model/expr.h"
#include "programs.h"
#include "semantics/lockstep.h"
#include "semantics/random_run.h"

using namespace syncbisim;
using semantics::Step;
using semantics::StepKind;

namespace {

// Figure 7's spec and the allocations of Figures 7 and 8, in tests/inputs/semantics.
const char* kFigure7Spec = "tests/inputs/semantics/fig7.spec.sb";
const char* kFigure7Impl = "tests/inputs/semantics/fig7_per_instruction.impl.sb";
const char* kFigure8Impl = "tests/inputs/semantics/fig8_per_loop.impl.sb";

// Drives the lock-step pair, letting E0 run as far as it can first, and records the wait
// threshold and semaphore value each time E1 stands before I2.
std::vector<std::uint64_t> thresholds_at_i2(const test::Loaded& spec, const test::Loaded& impl) {
  const semantics::SpecSystem ss(spec.code);
  const semantics::ImplSystem is(impl.code);
  const semantics::Lockstep both(ss, is);
  auto s = both.initial();
  std::vector<std::uint64_t> out;
  const auto e1 = test::engine(impl, "E1");
  std::vector<Step> steps;
  bool at_i2 = false;
  for (;;) {
    CHECK(both.mismatches(s).empty());
    steps.clear();
    both.visible(s, steps);
    if (steps.empty()) break;
    const bool now_at_i2 = is.control().next_op(s.impl.control, e1).kind == semantics::OpKind::Instr;
    if (now_at_i2 && !at_i2) out.push_back(is.explain(s.impl, e1).at(0).threshold);
    at_i2 = now_at_i2;
    // prefer E0's steps so the producer is ahead; E1 issues only when all of E0 is done
    const Step* pick = &steps.front();
    for (const auto& st : steps)
      if (st.engine == test::engine(impl, "E0")) {
        pick = &st;
        break;
      }
    if (pick->kind == StepKind::Issue && pick->engine == e1) at_i2 = false;
    both.apply(s, *pick);
  }
  CHECK(both.finished(s));
  return out;
}

}  // namespace

TEST_CASE("natural-number arithmetic: truncated subtraction and isgt") {
  using model::Expr;
  using model::ExprOp;
  const auto no_regs = [](const std::string&) -> std::uint64_t { return 0; };
  CHECK(Expr::binary(ExprOp::Sub, Expr::constant(3), Expr::constant(5)).eval(no_regs) == 0);
  CHECK(Expr::binary(ExprOp::Sub, Expr::constant(5), Expr::constant(3)).eval(no_regs) == 2);
  CHECK(Expr::binary(ExprOp::IsGt, Expr::constant(2), Expr::constant(1)).eval(no_regs) == 1);
  CHECK(Expr::binary(ExprOp::IsGt, Expr::constant(1), Expr::constant(1)).eval(no_regs) == 0);
  // the same through a register operation of the impl system
  const auto f = test::load(R"(
syncbisim impl/1
engines E0
E0: [a := 1 - 3] [b := isgt(4, a) * (7 - 2)] [c := b - a - 9]
)");
  const semantics::ImplSystem sys(f->code);
  auto s = sys.initial();
  for (int i = 0; i < 3; ++i) {
    const auto steps = semantics::expanded(sys, s);
    REQUIRE(steps.size() == 1);
    sys.apply(s, steps[0]);
  }
  CHECK(s.regs[0][*f->index.reg("a")] == 0);
  CHECK(s.regs[0][*f->index.reg("b")] == 5);
  CHECK(s.regs[0][*f->index.reg("c")] == 0);
}

TEST_CASE("Figure 3: the consumer waits for s0 >= 2, the producer's ordinal on its engine") {
  const auto spec = test::load_file("corpus/figures/fig3_straight_line.json");
  const auto impl = test::load(R"(
syncbisim impl/1
engines E0 E1
semaphores s0 s1
E0: I0 {s0 += 1} I1 {s0 += 1}
E1: {s0 >= 2} I2 {s1 += 1} I3 {s1 += 1}
)");
  const semantics::SpecSystem ss(spec->code);
  const semantics::ImplSystem is(impl->code);
  const semantics::Lockstep both(ss, is);
  auto s = both.initial();
  const auto e0 = test::engine(*impl, "E0"), e1 = test::engine(*impl, "E1");
  auto wait = [&] { return is.explain(s.impl, e1).at(0); };
  CHECK(wait().threshold == 2);
  CHECK(wait().value == 0);
  CHECK_FALSE(both.impl_can_issue(s, e1));
  both.apply(s, {StepKind::Issue, e0, test::instr(*impl, "I0"), 0});
  both.apply(s, {StepKind::Retire, e0, test::instr(*impl, "I0"), 0});
  CHECK(wait().value == 1);
  CHECK_FALSE(both.impl_can_issue(s, e1));
  both.apply(s, {StepKind::Issue, e0, test::instr(*impl, "I1"), 0});
  CHECK_FALSE(both.impl_can_issue(s, e1));
  both.apply(s, {StepKind::Retire, e0, test::instr(*impl, "I1"), 0});
  CHECK(wait().value == 2);
  CHECK(both.impl_can_issue(s, e1));
  CHECK(both.mismatches(s).empty());
}

TEST_CASE("Figures 7 and 8: the wait values step by step") {
  const auto spec = test::load_file(kFigure7Spec);
  SUBCASE("per-instruction (Figure 7): w = isgt(rhA, 0) * rA = 1, 2, 3") {
    const auto impl = test::load_file(kFigure7Impl, spec.get());
    CHECK(thresholds_at_i2(*spec, *impl) == std::vector<std::uint64_t>{1, 2, 3});
  }
  SUBCASE("per-loop (Figure 8): w = isgt(rhA, 0) * (2 * rA) = 2, 4, 6") {
    const auto impl = test::load_file(kFigure8Impl, spec.get());
    CHECK(thresholds_at_i2(*spec, *impl) == std::vector<std::uint64_t>{2, 4, 6});
  }
  SUBCASE("random schedules of both allocations never part from the spec") {
    for (const char* text : {kFigure7Impl, kFigure8Impl}) {
      const auto impl = test::load_file(text, spec.get());
      const semantics::SpecSystem ss(spec->code);
      const semantics::ImplSystem is(impl->code);
      const semantics::Lockstep both(ss, is);
      for (std::uint64_t seed = 1; seed <= 50; ++seed)
        CHECK(semantics::run_lockstep(both, seed).outcome == semantics::RunOutcome::Finished);
    }
  }
}

TEST_CASE("a wrong wait value is caught in lock step: under-synchronization") {
  // Figure 8 with N*r - (N-K) computed for K = 1 instead of 2: I2 may issue after I0 alone.
  const auto spec = test::load_file(kFigure7Spec);
  const auto impl = test::load_file("tests/inputs/semantics/fig8_wrong_k.impl.sb", spec.get());
  const semantics::SpecSystem ss(spec->code);
  const semantics::ImplSystem is(impl->code);
  const semantics::Lockstep both(ss, is);
  auto s = both.initial();
  const auto e0 = test::engine(*impl, "E0"), e1 = test::engine(*impl, "E1");
  both.apply(s, {StepKind::Issue, e0, test::instr(*impl, "I0"), 0});
  both.apply(s, {StepKind::Retire, e0, test::instr(*impl, "I0"), 0});
  const auto ms = both.mismatches(s);
  REQUIRE(ms.size() == 1);
  CHECK(ms[0].engine == e1);
  CHECK(ms[0].impl_can);
  CHECK_FALSE(ms[0].spec_can);
  CHECK(ms[0].spec_checks.at(0).owed == 1);
  CHECK(ms[0].spec_checks.at(0).retired == 0);
  CHECK(ms[0].impl_checks.at(0).value == 1);
  CHECK(ms[0].impl_checks.at(0).threshold == 1);
}

TEST_CASE("a barrier waits for the engine's drain and resets only its listed semaphores") {
  const auto f = test::load(R"(
syncbisim impl/1
engines E0 E1
semaphores s0 s1
E0: I0 {s0 += 1} I1 {s1 += 1} barrier(s0) I2
E1: barrier(s0) J0
)");
  const semantics::ImplSystem sys(f->code);
  auto s = sys.initial();
  const auto e0 = test::engine(*f, "E0"), e1 = test::engine(*f, "E1");
  auto enabled = [&] {
    const auto steps = semantics::expanded(sys, s);
    return steps;
  };
  auto has = [](const std::vector<Step>& steps, StepKind k, semantics::EngineId e) {
    for (const auto& st : steps)
      if (st.kind == k && st.engine == e) return true;
    return false;
  };
  CHECK(has(enabled(), StepKind::BarrierArrive, e1));
  sys.apply(s, {StepKind::BarrierArrive, e1, 0, 0});
  sys.apply(s, {StepKind::Issue, e0, test::instr(*f, "I0"), 0});
  sys.apply(s, {StepKind::Issue, e0, test::instr(*f, "I1"), 0});
  CHECK_FALSE(has(enabled(), StepKind::BarrierArrive, e0));  // two instructions in flight
  sys.apply(s, {StepKind::Retire, e0, test::instr(*f, "I0"), 0});
  CHECK_FALSE(has(enabled(), StepKind::BarrierArrive, e0));  // one still in flight
  sys.apply(s, {StepKind::Retire, e0, test::instr(*f, "I1"), 0});
  CHECK(std::vector<std::uint64_t>(s.sems.begin(), s.sems.end()) == std::vector<std::uint64_t>{1, 1});
  CHECK(has(enabled(), StepKind::BarrierArrive, e0));
  CHECK_FALSE(sys.barrier_ready(s));
  sys.apply(s, {StepKind::BarrierArrive, e0, 0, 0});
  CHECK(sys.barrier_ready(s));
  CHECK_FALSE(sys.can_issue(s, e1));  // J0 is behind the barrier until the release
  sys.apply(s, {StepKind::BarrierRelease, 0, 0, 0});
  CHECK(std::vector<std::uint64_t>(s.sems.begin(), s.sems.end()) ==
        std::vector<std::uint64_t>{0, 1});  // s0 reset, s1 kept
  CHECK(sys.can_issue(s, e0));
  CHECK(sys.can_issue(s, e1));
}

TEST_CASE("an engine that finishes while another waits at a barrier leaves it deadlocked") {
  const auto spec = test::load(R"(
syncbisim spec/1
engines E0 E1
E0: I0
E1: J0
)");
  const auto impl = test::load(R"(
syncbisim impl/1
engines E0 E1
semaphores s0
E0: I0 barrier
E1: J0
)");
  const semantics::SpecSystem ss(spec->code);
  const semantics::ImplSystem is(impl->code);
  const semantics::Lockstep both(ss, is);
  const auto r = semantics::run_lockstep(both, 7);
  CHECK(r.outcome == semantics::RunOutcome::Deadlock);
  REQUIRE(r.stuck.empty());  // the spec side finished: the deadlock is the impl's alone
}

TEST_CASE("an engine with no instruction in a loop runs its iterations within one step, up to the internal-step limit") {
  // E0 has nothing in loop B but a register count: after issuing I0 it runs all of B's
  // iterations (a few internal steps each: the operation and the loop's control) within that step.
  auto pair_at = [](std::uint64_t trip) {
    const auto n = std::to_string(trip);
    auto spec = test::load("syncbisim spec/1\nengines E0 E1\nE0: I0\nloop B trip " + n + " {\n  E1: I1\n}\n");
    auto impl = test::load("syncbisim impl/1\nengines E0 E1\nE0: I0\nloop B {\n  E0: [r := r + 1]\n  E1: I1\n}\n",
                           spec.get());
    return std::pair{std::move(spec), std::move(impl)};
  };
  const std::uint64_t within = semantics::Lockstep::kMaxInternalSteps / 4;
  for (const std::uint64_t trip : {std::uint64_t{3}, within, semantics::Lockstep::kMaxInternalSteps}) {
    INFO("trip ", trip);
    const auto [spec, impl] = pair_at(trip);
    const semantics::SpecSystem ss(spec->code);
    const semantics::ImplSystem is(impl->code);
    const semantics::Lockstep both(ss, is);
    auto s = both.initial();
    const auto e0 = test::engine(*impl, "E0");
    const semantics::Step issue{StepKind::Issue, e0, test::instr(*impl, "I0"), 0};
    if (trip <= within) {
      both.apply(s, issue);
      CHECK(s.impl.regs[e0][0] == trip);  // every iteration ran
    } else {
      CHECK_THROWS_AS(both.apply(s, issue), semantics::InternalStepLimit);
    }
  }
}

TEST_CASE("a recorded run keeps every register operation's value, also right after a trip choice") {
  // Issue 42: the choice's event was meant to lose its detail, but the last internal step it set
  // off (here w := ...) lost its value instead: "[w := ...]" with no "w=0".
  const auto spec = test::load_file("tests/inputs/deadlock/past_cap.sb");
  const auto impl = test::load_file("tests/inputs/deadlock/past_cap.impl.sb", spec.get());
  const semantics::SpecSystem ss(spec->code);
  const semantics::ImplSystem is(impl->code);
  const semantics::Lockstep both(ss, is);
  int regops = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (const auto& ev : semantics::run_lockstep(both, seed).events)
      if (ev.step.kind == StepKind::RegOp) {
        ++regops;
        CHECK_MESSAGE(!ev.detail.empty(), "seed ", seed, ": a register operation without its value");
      }
  CHECK(regops > 20);
}
