// Control steps shared by both systems: in-flight lists, commits, trips and branch choices.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "programs.h"

using namespace syncbisim;
using semantics::Step;
using semantics::StepKind;

namespace {
bool has(const std::vector<Step>& steps, StepKind k, semantics::EngineId e, std::uint32_t arg) {
  return std::any_of(steps.begin(), steps.end(),
                     [&](const Step& s) { return s.kind == k && s.engine == e && s.arg == arg; });
}
}  // namespace

TEST_CASE("in-flight lists retire in issue order within an engine and out of step across engines") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0 E1
E0: I0 I1 I2
E1: J0
)");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  const auto e0 = test::engine(*f, "E0"), e1 = test::engine(*f, "E1");
  const auto i0 = test::instr(*f, "I0"), i1 = test::instr(*f, "I1"), j0 = test::instr(*f, "J0");
  sys.apply(s, {StepKind::Issue, e0, i0, 0});
  sys.apply(s, {StepKind::Issue, e0, i1, 0});
  sys.apply(s, {StepKind::Issue, e1, j0, 0});
  auto steps = semantics::expanded(sys, s);
  CHECK(has(steps, StepKind::Retire, e0, i0));
  CHECK_FALSE(has(steps, StepKind::Retire, e0, i1));  // I1 is behind I0
  CHECK(has(steps, StepKind::Retire, e1, j0));        // E1 need not wait for E0
  sys.apply(s, {StepKind::Retire, e1, j0, 0});
  CHECK(s.retired[j0] == 1);
  CHECK(s.retired[i0] == 0);
  sys.apply(s, {StepKind::Retire, e0, i0, 0});
  steps = semantics::expanded(sys, s);
  CHECK(has(steps, StepKind::Retire, e0, i1));
}

TEST_CASE("without commit fusion an instruction commits out of order but retires in order") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0
E0: I0 I1
)");
  const semantics::SpecSystem sys(f->code, semantics::Options{false});
  auto s = sys.initial();
  const auto e0 = test::engine(*f, "E0");
  sys.apply(s, {StepKind::Issue, e0, test::instr(*f, "I0"), 0});
  sys.apply(s, {StepKind::Issue, e0, test::instr(*f, "I1"), 0});
  auto steps = semantics::expanded(sys, s);
  CHECK(has(steps, StepKind::Commit, e0, 0));
  CHECK(has(steps, StepKind::Commit, e0, 1));
  CHECK_FALSE(std::any_of(steps.begin(), steps.end(), [](const Step& x) { return x.kind == StepKind::Retire; }));
  sys.apply(s, {StepKind::Commit, e0, 1, 0});  // the younger one commits first
  steps = semantics::expanded(sys, s);
  CHECK_FALSE(std::any_of(steps.begin(), steps.end(), [](const Step& x) { return x.kind == StepKind::Retire; }));
  sys.apply(s, {StepKind::Commit, e0, 0, 0});
  steps = semantics::expanded(sys, s);
  CHECK(has(steps, StepKind::Retire, e0, test::instr(*f, "I0")));
}

TEST_CASE("a range trip is chosen once per trip and read by every engine (uniform control)") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: P
  E1: C
}
)");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  const auto e0 = test::engine(*f, "E0"), e1 = test::engine(*f, "E1");
  auto steps = semantics::expanded(sys, s, e0);
  REQUIRE(steps.size() == 3);
  for (std::uint32_t v = 1; v <= 3; ++v) CHECK(has(steps, StepKind::Choose, e0, v));
  sys.apply(s, steps[1]);  // E0 chooses 2
  CHECK(s.control.engines[e0].frames[1].trip == 2);
  steps = semantics::expanded(sys, s, e1);
  REQUIRE(steps.size() == 1);  // E1 reads the choice: no choice of its own
  CHECK(steps[0].kind == StepKind::LoopEntry);
  sys.apply(s, steps[0]);
  CHECK(s.control.engines[e1].frames[1].trip == 2);
  CHECK(s.control.pending[1].empty());  // read by every engine: forgotten
}

TEST_CASE("divergent trips are chosen by each engine on its own") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0 E1
loop A trip per_engine(E0: 0..1, E1: 2..3; default 1) {
  E0: P
  E1: C
}
)");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  auto steps = semantics::expanded(sys, s, test::engine(*f, "E0"));
  CHECK(steps.size() == 2);
  sys.apply(s, steps[0]);
  steps = semantics::expanded(sys, s, test::engine(*f, "E1"));
  REQUIRE(steps.size() == 2);
  CHECK(has(steps, StepKind::Choose, test::engine(*f, "E1"), 2));
  CHECK(has(steps, StepKind::Choose, test::engine(*f, "E1"), 3));
}

TEST_CASE("a sequence trip runs its k-th value on the k-th trip, the last one repeating") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0
loop A trip 4 {
  loop B trip [2, 1] {
    E0: P
  }
}
)");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  std::vector<Step> steps;
  std::vector<std::uint32_t> trips;
  for (;;) {
    steps = semantics::expanded(sys, s);
    if (steps.empty()) break;
    const auto st = steps.front();
    sys.apply(s, st);
    if (st.kind == StepKind::LoopEntry && st.arg == 2 && s.control.engines[0].frames[2].iter == 1)
      trips.push_back(s.control.engines[0].frames[2].trip);
  }
  CHECK(trips == std::vector<std::uint32_t>{2, 1, 1, 1});
  CHECK(s.retired[0] == 5);
}

TEST_CASE("a cond runs exactly one branch, its branches are loops of trip 0 or 1") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0
loop A trip 2 {
  cond C taken [then, else] {
    E0: T
  } else {
    E0: F
  }
}
)");
  const semantics::SpecSystem sys(f->code);
  auto s = sys.initial();
  test::run_first_steps(sys, s);
  CHECK(sys.all_finished(s));
  CHECK(s.retired[test::instr(*f, "T")] == 1);
  CHECK(s.retired[test::instr(*f, "F")] == 1);
}

TEST_CASE("a branch chosen by one engine is the branch every engine takes (uniform control)") {
  const auto f = test::load(R"(
syncbisim spec/1
engines E0 E1
cond C taken any {
  E0: T0
  E1: T1
} else {
  E0: F0
  E1: F1
}
)");
  const semantics::SpecSystem sys(f->code);
  for (std::uint32_t branch : {0U, 1U}) {
    auto s = sys.initial();
    auto steps = semantics::expanded(sys, s, test::engine(*f, "E0"));
    REQUIRE(steps.size() == 2);
    for (const auto& st : steps)
      if (st.arg == branch) sys.apply(s, st);
    test::run_first_steps(sys, s);
    CHECK(sys.all_finished(s));
    CHECK(s.retired[test::instr(*f, "T1")] == (branch == 0 ? 1U : 0U));
    CHECK(s.retired[test::instr(*f, "F1")] == (branch == 1 ? 1U : 0U));
  }
}
