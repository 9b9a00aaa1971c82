// Barrier allocations of consumers after loop nests (docs/prover.md "Inside loops that ended"): the
// last release before the consumer, the one before the barrier holding it and the last reset of its
// semaphore lie inside the nest's last iterations. Hand-written schemes of that shape, correct and
// broken, are files in tests/inputs/prover/ended_loops (prove_test.cpp checks their answers).
#include <doctest/doctest.h>

#include "allocator/allocate.h"
#include "prover/prove_support.h"

using namespace syncbisim;
using prover::Answer;

TEST_CASE("prover: the barrier allocation of a consumer after a loop nest gets real answers") {
  for (const auto* rel :
       {"tests/inputs/prover/ended_loops/nest.spec.sb", "tests/inputs/prover/ended_loops/three_levels.spec.sb"}) {
    INFO(rel);
    const auto spec = test::load_corpus(rel, model::ProgramKind::Spec);
    auto alloc = allocator::allocate(spec.program, spec.index, allocator::Options{allocator::Strategy::Barrier, false});
    REQUIRE(alloc.ok());
    const auto r = test::prove_pair(spec, alloc->impl);
    for (const auto& x : r.consumers) {
      INFO(test::describe(x));
      CHECK(x.safe.answer == Answer::Proved);
      CHECK(x.exact.answer != Answer::Unknown);
    }
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK_MESSAGE(c->exact.answer == Answer::Proved, test::describe(*c));
    // Every refutation replays, and the unreduced explorer at trips of at most 3 finds what the
    // prover proves.
    const auto full = test::explore(spec, alloc->impl, 3, true, 1000000);
    for (const auto& x : r.consumers) {
      INFO(test::describe(x));
      for (const auto* p : {&x.safe, &x.exact})
        if (p->answer == Answer::Refuted) {
          REQUIRE(p->witness);
          CHECK(test::witness_holds(r, x.instr, x.engine, *p->witness));
        }
      if (x.safe.answer == Answer::Proved) CHECK(!full.under.count(x.instr));
      if (x.exact.answer == Answer::Proved) CHECK(!full.over.count(x.instr));
    }
  }
}
