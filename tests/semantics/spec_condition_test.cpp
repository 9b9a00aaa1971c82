// The spec's condition (1) on the paper's worked examples (docs/semantics.md §2, paper §4, Fig. 5).
#include <doctest/doctest.h>

#include <vector>

#include "programs.h"
#include "semantics/random_run.h"

using namespace syncbisim;
using semantics::StepKind;

namespace {

// Advances engine e without issuing until its next op is an instruction (or it cannot move).
void to_next_instr(const semantics::SpecSystem& sys, semantics::SpecState& s, semantics::EngineId e) {
  std::vector<semantics::Step> steps;
  for (;;) {
    if (sys.control().next_op(s.control, e).kind == semantics::OpKind::Instr) return;
    steps.clear();
    sys.control().loop_steps(s.control, e, steps);
    if (steps.empty()) return;
    sys.apply(s, steps.front());
  }
}

const char* kFigure5 = "tests/inputs/semantics/fig5_trip_sequence.spec.sb";

}  // namespace

TEST_CASE("Figure 5: every consumer instance, its target, and the producer count owed") {
  const auto f = test::load_file(kFigure5);
  const semantics::SpecSystem sys(f->code);
  const auto e0 = test::engine(*f, "E0"), e1 = test::engine(*f, "E1");
  struct Row {
    std::vector<std::int64_t> target;  // over (@top, A, B)
    bool underflow;
    std::uint64_t owed;
  };
  // The seven rows of the paper's Figure 5: v = (1,1) .. (2,4), δ = (0, 2).
  const std::vector<Row> rows = {
      {{1, 1, -1}, true, 0}, {{1, 1, 0}, true, 0},  {{1, 1, 1}, false, 1}, {{1, 2, -1}, true, 0},
      {{1, 2, 0}, true, 0},  {{1, 2, 1}, false, 4}, {{1, 2, 2}, false, 5},
  };
  SUBCASE("with the producer finished, the owed sums are 1, 4 and 5") {
    auto s = sys.initial();
    test::run_first_steps(sys, s, e0);
    CHECK(s.retired[test::instr(*f, "P")] == 7);
    for (const auto& row : rows) {
      to_next_instr(sys, s, e1);
      const auto checks = sys.explain(s, e1);
      REQUIRE(checks.size() == 1);
      CHECK(std::vector<std::int64_t>(checks[0].target.begin(), checks[0].target.end()) == row.target);
      CHECK(checks[0].underflow == row.underflow);
      CHECK(checks[0].owed == row.owed);
      REQUIRE(sys.can_issue(s, e1));
      sys.apply(s, semantics::Step{StepKind::Issue, e1, test::instr(*f, "C"), 0});
    }
  }
  SUBCASE("the consumer waits exactly at (1,3), (2,3) and (2,4)") {
    // Let the producer run only as far as needed: each blocked instance is released by exactly
    // the owed number of producer retirements and not one fewer.
    auto s = sys.initial();
    std::vector<bool> waited;
    for (const auto& row : rows) {
      to_next_instr(sys, s, e1);
      waited.push_back(!sys.can_issue(s, e1));
      while (!sys.can_issue(s, e1)) {
        CHECK(s.retired[test::instr(*f, "P")] < row.owed);
        // one more producer iteration: issue and retire P
        std::vector<semantics::Step> steps;
        for (bool retired = false; !retired;) {
          steps = semantics::expanded(sys, s, e0);
          REQUIRE(!steps.empty());
          retired = steps.front().kind == StepKind::Retire;
          sys.apply(s, steps.front());
        }
      }
      CHECK(s.retired[test::instr(*f, "P")] >= row.owed);
      sys.apply(s, semantics::Step{StepKind::Issue, e1, test::instr(*f, "C"), 0});
    }
    CHECK(waited == std::vector<bool>{false, false, true, false, false, true, true});
  }
}

TEST_CASE("Figure 3: a straight-line consumer waits for its producer's retirement") {
  const auto f = test::load_file("corpus/figures/fig3_straight_line.json");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  const auto e0 = test::engine(*f, "E0"), e1 = test::engine(*f, "E1");
  CHECK_FALSE(sys.can_issue(s, e1));
  CHECK(sys.explain(s, e1)[0].owed == 1);
  sys.apply(s, {StepKind::Issue, e0, test::instr(*f, "I0"), 0});
  sys.apply(s, {StepKind::Issue, e0, test::instr(*f, "I1"), 0});
  CHECK_FALSE(sys.can_issue(s, e1));  // issued is not enough: the producer must retire
  sys.apply(s, {StepKind::Retire, e0, test::instr(*f, "I0"), 0});
  CHECK_FALSE(sys.can_issue(s, e1));
  sys.apply(s, {StepKind::Retire, e0, test::instr(*f, "I1"), 0});
  CHECK(sys.can_issue(s, e1));
}

TEST_CASE("several dependencies on one consumer must all hold") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0 E1 E2
E0: A
E1: B
E2: C
dep A -> C
dep B -> C
)");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  const auto e2 = test::engine(*f, "E2");
  auto finish = [&](const char* engine, const char* name) {
    sys.apply(s, {StepKind::Issue, test::engine(*f, engine), test::instr(*f, name), 0});
    sys.apply(s, {StepKind::Retire, test::engine(*f, engine), test::instr(*f, name), 0});
  };
  CHECK_FALSE(sys.can_issue(s, e2));
  finish("E0", "A");
  CHECK_FALSE(sys.can_issue(s, e2));
  CHECK(sys.explain(s, e2).size() == 2);
  finish("E1", "B");
  CHECK(sys.can_issue(s, e2));
}

TEST_CASE("a distance on an outer loop sums over earlier outer iterations (multi-level)") {
  // C at (a, b) needs P at (a-1, b): the owed count includes every B-iteration up to (a-1, b).
  const auto f = test::load(R"(
syncbisim spec/1
engines E0 E1
loop A trip 3 {
  loop B trip [2, 3, 1] {
    E0: P
    E1: C
  }
}
dep P -> C distance A=1
)");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  test::run_first_steps(sys, s, test::engine(*f, "E0"));
  const auto e1 = test::engine(*f, "E1");
  // A=1: B runs 2 (underflow); A=2: B runs 3: targets (1,1) (1,2) (1,3) -> owed 1, 2, 2;
  // A=3: B runs 1: target (2,1) -> owed 2 + 1 = 3.
  const std::vector<std::uint64_t> owed = {0, 0, 1, 2, 2, 3};
  const std::vector<bool> underflow = {true, true, false, false, false, false};
  for (std::size_t i = 0; i < owed.size(); ++i) {
    to_next_instr(sys, s, e1);
    const auto c = sys.explain(s, e1);
    REQUIRE(c.size() == 1);
    CHECK(c[0].underflow == underflow[i]);
    CHECK(c[0].owed == owed[i]);
    sys.apply(s, {StepKind::Issue, e1, test::instr(*f, "C"), 0});
  }
}

TEST_CASE("a nested producer is counted through the consumer engine's loop entries") {
  // Paper Figure 6 (forward): C after loop B in A's body waits for every P of this A-iteration.
  const auto f = test::load_file("tests/inputs/semantics/fig6_forward_trip_sequence.spec.sb");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  test::run_first_steps(sys, s, test::engine(*f, "E0"));
  const auto e1 = test::engine(*f, "E1");
  const std::vector<std::uint64_t> owed = {2, 5};
  for (auto o : owed) {
    to_next_instr(sys, s, e1);
    const auto c = sys.explain(s, e1);
    REQUIRE(c.size() == 1);
    CHECK_FALSE(c[0].underflow);
    CHECK(c[0].owed == o);
    sys.apply(s, {StepKind::Issue, e1, test::instr(*f, "C"), 0});
  }
}

TEST_CASE("divergent control (paper §7.5): a producer loop that never runs blocks the consumer forever") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0 E1
loop A trip per_engine(E0: 0, E1: 1) {
  E0: P
  E1: C
}
dep P -> C
)");
  const semantics::SpecSystem sys(f->code);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto r = semantics::run_spec(sys, seed);
    CHECK(r.outcome == semantics::RunOutcome::Deadlock);
    REQUIRE(r.stuck.size() == 1);
    CHECK(r.stuck[0] == test::engine(*f, "E1"));
  }
}
