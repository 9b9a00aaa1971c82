// Barriers inside loops that ended before the consumer (docs/prover.md "Inside loops that
// ended"): the consumer follows a loop nest whose bodies end with barriers, so the last release
// before it, the one before the barrier holding it, and the last reset of its semaphore lie inside
// the nest's last iterations. Correct schemes are proved, broken ones refuted with a witness that
// replays, and the unreduced explorer agrees at small trips.
#include <doctest/doctest.h>

#include "allocator/allocate.h"
#include "prover/prove_support.h"

using namespace syncbisim;
using prover::Answer;

namespace {

std::string describe(const prover::ConsumerResult& c) {
  return c.instr + ": safe " + prover::to_string(c.safe.answer) + " " + c.safe.reason + "; exact " +
         prover::to_string(c.exact.answer) + " " + c.exact.reason;
}

// Every refutation replays, and the explorer at trips of at most 3 finds what the prover says.
void check_witnesses(const formats::LoadedProgram& spec, const model::Program& impl, const prover::ProveResult& r) {
  const auto full = test::explore(spec, impl, 3, true, 1000000);
  for (const auto& c : r.consumers) {
    INFO(describe(c));
    for (const auto* p : {&c.safe, &c.exact}) {
      if (p->answer != Answer::Refuted) continue;
      REQUIRE(p->witness);
      CHECK(test::witness_holds(r, c.instr, c.engine, *p->witness));
    }
    if (c.safe.answer == Answer::Proved) CHECK(!full.under.count(c.instr));
    if (c.exact.answer == Answer::Proved) CHECK(!full.over.count(c.instr));
  }
}

// Two loops nested; C after both on an engine that also works in the inner loop (as
// FlashAttention's normalize on ACT, whose exp runs in the inner loop).
const char* kSpec = R"(syncbisim spec/1
engines E0 E1 E2
loop A trip 1..50 {
  E1: L
  loop B trip 1..40 {
    E0: P
    E2: X
  }
  E1: R
}
E2: C
dep L -> P
dep P -> X
dep X -> R
dep R -> C
dep P -> C
)";

// The barrier baseline's shape: a barrier before the inner loop, at the end of each body.
const char* kBarriers = R"(syncbisim impl/1
engines E0 E1 E2
semaphores s0 s1 s2
loop A {
  E0: barrier
  E1: L barrier
  E2: barrier
  loop B {
    E0: P {s0 += 1} barrier
    E1: barrier
    E2: {s0 >= 1} X barrier
  }
  E0: barrier
  E1: R barrier
  E2: barrier
}
E2: C
)";

}  // namespace

TEST_CASE("prover: a consumer after a loop nest with barriers is proved safe and exact") {
  const auto spec = test::load_inline(kSpec);
  const auto impl = test::load_inline(kBarriers);
  const auto r = test::prove_pair(spec, impl.program);
  const auto* c = test::consumer(r, "C");
  REQUIRE(c);
  CHECK_MESSAGE(c->safe.answer == Answer::Proved, describe(*c));
  CHECK_MESSAGE(c->exact.answer == Answer::Proved, describe(*c));
  for (const auto& x : r.consumers) CHECK_MESSAGE(x.safe.answer == Answer::Proved, describe(x));
  check_witnesses(spec, impl.program, r);
}

TEST_CASE("prover: the barrier allocation of a consumer after a loop nest gets real answers") {
  // Three levels, and a consumer after the outermost on an engine that works only in the
  // innermost: the held chain walks back through the barriers of every level.
  for (const auto* text : {kSpec, R"(syncbisim spec/1
engines E0 E1 E2
E0: I
loop A trip 1..5 {
  E1: L
  loop B trip 2 {
    E0: P
    loop D trip 1..3 {
      E2: X
      E1: Y
    }
    E0: Q
  }
  E1: R
}
E2: C
E0: Z
dep I -> L
dep L -> P
dep P -> X
dep X -> Y
dep Y -> Q
dep Q -> R
dep R -> C
dep X -> C
dep C -> Z
)"}) {
    const auto spec = test::load_inline(text);
    auto alloc = allocator::allocate(spec.program, spec.index, allocator::Options{allocator::Strategy::Barrier, false});
    REQUIRE(alloc.ok());
    const auto r = test::prove_pair(spec, alloc->impl);
    for (const auto& x : r.consumers) {
      CHECK_MESSAGE(x.safe.answer == Answer::Proved, describe(x));
      CHECK_MESSAGE(x.exact.answer != Answer::Unknown, describe(x));
    }
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK_MESSAGE(c->exact.answer == Answer::Proved, describe(*c));
    check_witnesses(spec, alloc->impl, r);
  }
}

TEST_CASE("prover: broken schemes after a loop nest with barriers are refuted, and the witnesses replay") {
  const auto spec = test::load_inline(kSpec);
  SUBCASE("no barrier at the end of the outer loop: C may run before the last R") {
    const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1 E2
semaphores s0 s1 s2
loop A {
  E0: barrier
  E1: L barrier
  E2: barrier
  loop B {
    E0: P {s0 += 1} barrier
    E1: barrier
    E2: {s0 >= 1} X barrier
  }
  E1: R
}
E2: C
)");
    const auto r = test::prove_pair(spec, impl.program);
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK_MESSAGE(c->safe.answer == Answer::Refuted, describe(*c));
    check_witnesses(spec, impl.program, r);
  }
  SUBCASE("a wait for a signal the barrier after it reset") {
    const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1 E2
semaphores s0 s1 s2
loop A {
  E0: barrier
  E1: L barrier
  E2: barrier
  loop B {
    E0: P {s0 += 1} barrier
    E1: barrier
    E2: {s0 >= 1} X barrier
  }
  E0: barrier
  E1: R {s1 += 1} barrier
  E2: barrier
}
E2: {s1 >= 1} C
)");
    const auto r = test::prove_pair(spec, impl.program);
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK_MESSAGE(c->safe.answer == Answer::Proved, describe(*c));
    CHECK_MESSAGE(c->exact.answer == Answer::Refuted, describe(*c));
    check_witnesses(spec, impl.program, r);
  }
  SUBCASE("C depends on P only: held at the outer loop's last barrier while R runs") {
    const auto spec_p = test::load_inline(R"(syncbisim spec/1
engines E0 E1 E2
loop A trip 1..50 {
  E1: L
  loop B trip 1..40 {
    E0: P
    E2: X
  }
  E1: R
}
E2: C
dep L -> P
dep P -> X
dep X -> R
dep P -> C
)");
    const auto impl = test::load_inline(kBarriers);
    const auto r = test::prove_pair(spec_p, impl.program);
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK_MESSAGE(c->safe.answer == Answer::Proved, describe(*c));
    REQUIRE_MESSAGE(c->exact.answer == Answer::Refuted, describe(*c));
    CHECK(c->exact.witness->mismatch.impl_blocked_at_barrier);
    check_witnesses(spec_p, impl.program, r);
  }
}

TEST_CASE("prover: a semaphore last reset inside the loop nest before the consumer") {
  // The barriers end the inner loop's iterations only; C waits for the one signal of the last R,
  // which follows the last reset, the barrier ending B's last iteration in A's last iteration.
  const auto spec = test::load_inline(kSpec);
  const std::string impl_text = R"(syncbisim impl/1
engines E0 E1 E2
semaphores s0 s1 s2
loop A {
  E0: barrier
  E1: L barrier
  E2: barrier
  loop B {
    E0: P {s0 += 1} barrier
    E1: barrier
    E2: {s0 >= 1} X barrier
  }
  E1: R {s1 += 1}
}
E2: {s1 >= N} C
)";
  auto with = [&](const std::string& n) {
    auto t = impl_text;
    t.replace(t.find("N} C"), 1, n);
    return test::load_inline(t);
  };
  SUBCASE("correct") {
    const auto impl = with("1");
    const auto r = test::prove_pair(spec, impl.program);
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK_MESSAGE(c->safe.answer == Answer::Proved, describe(*c));
    CHECK_MESSAGE(c->exact.answer == Answer::Proved, describe(*c));
    check_witnesses(spec, impl.program, r);
  }
  SUBCASE("waits for two: never more than one since the reset") {
    const auto impl = with("2");
    const auto r = test::prove_pair(spec, impl.program);
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK_MESSAGE(c->safe.answer == Answer::Proved, describe(*c));
    CHECK_MESSAGE(c->exact.answer == Answer::Refuted, describe(*c));
    check_witnesses(spec, impl.program, r);
  }
}
