// Which steps the reductions take alone (statespace/detail/reducer.h, docs/checker.md "Reductions"),
// at the states that matter: an engine whose last instruction in flight stands between it and a
// barrier. That the reductions keep every verdict and violation is the properties of
// reduction_test.cpp, the corpus test (both modes on every corpus pair, among them
// corpus/good/nested_forward_offset1_per_instruction.impl.sb, the pair this was found on) and
// tests/cli/check_reduction_barrier_drain.case.
#include <doctest/doctest.h>

#include <string>

#include "checker/check_support.h"
#include "semantics/lockstep.h"
#include "statespace/detail/reducer.h"

using namespace syncbisim;
using semantics::LockstepState;
using semantics::Step;
using semantics::StepKind;
using statespace::detail::Reducer;

namespace {

// E0 waits at the barrier for C, which X does not need: once P has retired, X is owed nothing.
constexpr const char* kSpec = R"(syncbisim spec/1
engines E0 E1
E0: P X
E1: C
dep P -> X
)";
constexpr const char* kImpl = R"(syncbisim impl/1
engines E0 E1
semaphores
E0: P barrier() X
E1: C barrier()
)";

// E1 reaches its barrier through L's head, with C in flight.
constexpr const char* kChoiceSpec = R"(syncbisim spec/1
engines E0 E1
E1: C
loop L trip 1..2 {
  E0: Q
}
E0: P
E1: Y
dep P -> Y
)";
constexpr const char* kChoiceImpl = R"(syncbisim impl/1
engines E0 E1
semaphores
E1: C
loop L {
  E0: Q
}
E0: P barrier()
E1: barrier() Y
)";

struct Fixture {
  explicit Fixture(const char* spec, const char* impl) : pair(test::load_pair(spec, impl)) {}
  std::unique_ptr<test::Pair> pair;
  const semantics::Lockstep& both = pair->lockstep();
  Reducer reducer{both};
  LockstepState s = both.initial();
  std::vector<Step> steps;

  const std::vector<Step>& visible() {
    steps.clear();
    both.visible(s, steps);
    return steps;
  }
  bool has(StepKind kind, semantics::EngineId e) {
    for (const auto& st : visible())
      if (st.kind == kind && st.engine == e) return true;
    return false;
  }
  // Applies engine e's visible step of this kind (there must be one).
  void take(StepKind kind, semantics::EngineId e) {
    for (const auto& st : visible())
      if (st.kind == kind && st.engine == e) {
        both.apply(s, st);
        return;
      }
    FAIL("no such step");
  }
  semantics::Steps runs;
  const Step* eager() {
    runs.clear();
    both.visible(s, runs);
    return reducer.eager(s, runs);
  }
};

}  // namespace

TEST_CASE("reducer: an unobserved retirement that lets its engine arrive at a barrier is not taken alone") {
  Fixture f(kSpec, kImpl);
  // Issues both sides may make are taken alone (P's and C's waits cannot be reset).
  REQUIRE(f.eager() != nullptr);
  CHECK(f.eager()->kind == StepKind::Issue);
  f.take(StepKind::Issue, 0);
  f.take(StepKind::Issue, 1);
  // P and C in flight, both engines draining at their barriers. C's retirement is unobserved (C
  // produces nothing, signals nothing), but retiring it first would make E1 arrive before E0 and
  // lose the state where E0 has arrived with P retired and E1 still drains: there X is owed
  // nothing and the impl holds it, an over-synchronization only that state shows.
  REQUIRE(f.has(StepKind::Retire, 0));
  REQUIRE(f.has(StepKind::Retire, 1));
  CHECK(f.reducer.may_arrive(f.s, 1));
  CHECK(f.reducer.may_arrive(f.s, 0));
  CHECK(f.eager() == nullptr);
  // The state it must keep is reached, and shows the over-synchronization at X.
  f.take(StepKind::Retire, 0);
  const auto ms = f.both.mismatches(f.s);
  REQUIRE(ms.size() == 1);
  CHECK(ms[0].engine == 0);
  CHECK(f.pair->spec_code().instrs[ms[0].instr].name == "X");
  CHECK(ms[0].spec_can);
  // Past the barrier, X's retirement leads to no barrier: it is taken alone again.
  f.take(StepKind::Retire, 1);
  f.take(StepKind::Issue, 0);
  CHECK_FALSE(f.reducer.may_arrive(f.s, 0));
  REQUIRE(f.eager() != nullptr);
  CHECK(f.eager()->kind == StepKind::Retire);
}

TEST_CASE("reducer: the barrier may lie past loop control, reached after a choice without another issue") {
  Fixture f(kChoiceSpec, kChoiceImpl);
  f.take(StepKind::Issue, 1);
  // E1 stands at L's head with C in flight, not yet at its barrier: whichever trip is chosen, L
  // has nothing for E1 and leads it straight to the barrier, so C's retirement may still be what
  // makes E1 arrive.
  REQUIRE(f.has(StepKind::Retire, 1));
  CHECK(f.reducer.may_arrive(f.s, 1));
  CHECK(f.eager() == nullptr);  // the other steps are choices
}

TEST_CASE("reducer: an unobserved retirement with another instruction in flight behind it is taken alone") {
  constexpr const char* spec = R"(syncbisim spec/1
engines E0
E0: A B
)";
  constexpr const char* impl = R"(syncbisim impl/1
engines E0
semaphores
E0: A B barrier()
)";
  Fixture f(spec, impl);
  f.take(StepKind::Issue, 0);
  f.take(StepKind::Issue, 0);
  // A and B in flight at the barrier: A's retirement cannot make E0 arrive (B is still in flight,
  // and nothing retires before A), so it is taken alone; B's, which would, is not.
  CHECK_FALSE(f.reducer.may_arrive(f.s, 0));
  REQUIRE(f.eager() != nullptr);
  CHECK(f.eager()->kind == StepKind::Retire);
  f.take(StepKind::Retire, 0);
  CHECK(f.reducer.may_arrive(f.s, 0));
  CHECK(f.eager() == nullptr);
}
