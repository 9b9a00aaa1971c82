// The overflow questions of the prover (docs/prover.md "Overflow"): a register or semaphore value
// past the hardware width, for every trip count, with the trips that reach it and, when the run
// to it is short, a trace that replays to a state where the value is past the width.
#include <doctest/doctest.h>

#include "prover/overflow_support.h"
#include "prover/prove_support.h"
#include "prover/report.h"

using namespace syncbisim;
using prover::Answer;
using test::check_trace;
using test::overflow_input;
using test::question;

namespace {

// tests/inputs/prover: a loop of up to 2^32 - 1 iterations, and its per-loop allocation.
formats::LoadedProgram long_spec() { return test::load_input("counter_long.spec.sb", model::ProgramKind::Spec); }
formats::LoadedProgram counter_impl() { return test::load_input("counter_long.impl.sb", model::ProgramKind::Impl); }

std::string spec_with_trip(const std::string& trip) {
  return "syncbisim spec/1\nengines E0 E1\nloop A trip " + trip + " {\n  E0: P\n  E1: C\n}\ndep P -> C\n";
}

}  // namespace

TEST_CASE("prover overflow: a counter of a loop of up to 2^32 - 1 iterations passes a signed 32-bit semaphore") {
  const auto spec = long_spec();
  const auto impl = counter_impl();
  const auto r = test::prove_pair(spec, impl.program);
  // The synchronization itself is right for every trip count.
  REQUIRE(r.consumers.size() == 1);
  CHECK(r.consumers[0].answer == Answer::Proved);
  const auto& s = question(r, "semaphore", "s");
  CHECK(s.answer == Answer::Refuted);
  CHECK(s.max == 2147483647);
  CHECK(s.engine == "E0");
  CHECK(s.at.find("P (E0)") == 0);
  CHECK(std::stoull(s.value) > 2147483647);
  REQUIRE(s.model);
  CHECK(s.model->trips.at("A") > 2147483647);
  // A trace would be billions of steps: the finding says so instead of running them.
  CHECK_FALSE(s.traced);
  CHECK(s.no_trace.find("longer than 1000000 steps") != std::string::npos);
  // r_A counts to at most 2^32 - 1: within a 32-bit register.
  CHECK(question(r, "register", "r_A").answer == Answer::Proved);
  CHECK(r.verdict == Answer::Refuted);
  CHECK(prover::render_text(r).find("overflow: semaphore s: ") != std::string::npos);
  const auto j = prover::render_json(r);
  CHECK(j["widths"]["semaphore_bits"] == 32);
  bool found = false;
  for (const auto& o : j["overflows"]) found = found || (o["name"] == "s" && o["answer"] == "refuted");
  CHECK(found);
}

TEST_CASE("prover overflow: the same counter within 64-bit semaphores, or with a loop of at most 1000 iterations") {
  const auto impl = counter_impl();
  {
    prover::ProveOptions o;
    o.widths.semaphore_bits = 64;
    const auto r = test::prove_pair(long_spec(), impl.program, o);
    CHECK(r.verdict == Answer::Proved);
    for (const auto& q : r.overflows) CHECK_MESSAGE(q.answer == Answer::Proved, q.name, ": ", q.reason);
    CHECK(r.overflows.size() == 2);
  }
  {
    const auto r = test::prove_pair(test::load_inline(spec_with_trip("0..1000")), impl.program);
    CHECK(r.verdict == Answer::Proved);
    CHECK(question(r, "semaphore", "s").found_by == "trip bounds");
  }
  {
    // 2^31 - 1 iterations at most: s reaches exactly the largest value, not past it; decided by
    // Z3 for the register (2^31 - 1 > 2^31 - 1 is false), by the bounds for both here.
    const auto r = test::prove_pair(test::load_inline(spec_with_trip("0..2147483647")), impl.program);
    CHECK(question(r, "semaphore", "s").answer == Answer::Proved);
    const auto r2 = test::prove_pair(test::load_inline(spec_with_trip("0..2147483648")), impl.program);
    CHECK(question(r2, "semaphore", "s").answer == Answer::Refuted);
    CHECK(question(r2, "semaphore", "s").value == "2147483648");
  }
}

TEST_CASE("prover overflow: an 8-bit register counting to 300 overflows at 256, with a trace that replays") {
  prover::ProveOptions o;
  o.widths.register_bits = 8;
  const auto r = test::prove_pair(test::load_inline(spec_with_trip("300")), counter_impl().program, o);
  const auto& q = question(r, "register", "r_A");
  CHECK(q.answer == Answer::Refuted);
  CHECK(q.engine == "E1");
  CHECK(q.max == 255);
  CHECK(q.at == "r_A := r_A + 1 in loop A");
  CHECK(std::stoull(q.value) > 255);
  CHECK(q.model->trips.at("A") == 300);
  check_trace(r, q);
  CHECK(q.trace.size() < 300 * 8);
  CHECK(r.verdict == Answer::Refuted);
  // The semaphore counts to 300, far within 32 bits.
  CHECK(question(r, "semaphore", "s").answer == Answer::Proved);
  // Found for some range trips too: the smallest trip that reaches it is what the model gives.
  const auto r2 = test::prove_pair(test::load_inline(spec_with_trip("0..100000")), counter_impl().program, o);
  const auto& q2 = question(r2, "register", "r_A");
  CHECK(q2.answer == Answer::Refuted);
  CHECK(q2.model->trips.at("A") >= 256);
  CHECK(q2.model->trips.at("A") <= 1024);  // the smallest cap of the constant-trip search that allows it
  check_trace(r2, q2);
}

TEST_CASE("prover overflow: a semaphore with signals far past its width in all, reset by a barrier, never overflows") {
  const auto spec = overflow_input("reset_nest.spec.sb", model::ProgramKind::Spec);
  const auto impl = overflow_input("reset_by_barrier.impl.sb", model::ProgramKind::Impl);
  const auto r = test::prove_pair(spec, impl.program);
  // 10^10 signals and increments in all, at most 100,000 since each reset: Z3 decides it.
  const auto& s = question(r, "semaphore", "s");
  CHECK_MESSAGE(s.answer == Answer::Proved, s.reason);
  CHECK(s.found_by == "z3");
  const auto& reg = question(r, "register", "r");
  CHECK_MESSAGE(reg.answer == Answer::Proved, reg.reason);
  CHECK(reg.found_by == "z3");
  // Without the reset the same program overflows.
  const auto no_reset = overflow_input("no_reset.impl.sb", model::ProgramKind::Impl);
  const auto r2 = test::prove_pair(spec, no_reset.program);
  CHECK(question(r2, "semaphore", "s").answer == Answer::Refuted);
  CHECK(question(r2, "register", "r").answer == Answer::Proved);
}

TEST_CASE("prover overflow: values past 2^64 do not wrap in the prover") {
  const auto spec = test::load_inline(R"(syncbisim spec/1
engines E0 E1
E0: P
E1: C
)");
  const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1
semaphores s
E0: P {s += 1}
E1: [w := 18446744073709551615 + 1] [v := w * 4294967296] C
)");
  prover::ProveOptions o;
  o.widths.register_bits = 64;
  const auto r = test::prove_pair(spec, impl.program, o);
  const auto& w = question(r, "register", "w");
  CHECK(w.answer == Answer::Refuted);
  CHECK(w.value == "18446744073709551616");
  CHECK_FALSE(w.traced);  // the semantics' registers hold 64 bits: no run can show it
  CHECK(question(r, "register", "v").answer == Answer::Refuted);
  CHECK(question(r, "register", "v").value == "79228162514264337593543950336");
}

TEST_CASE(
    "prover overflow: a semaphore two engines signal past its width only after 10^9 iterations: unknown, no run that long") {
  const auto spec = overflow_input("two_signallers.spec.sb", model::ProgramKind::Spec);
  const auto impl = overflow_input("two_signallers.impl.sb", model::ProgramKind::Impl);
  const auto r = test::prove_pair(spec, impl.program);
  const auto& s = question(r, "semaphore", "s");
  // The sum passes 2^31 - 1 only past a billion iterations: a run to it is past the trace limit,
  // and the sum is a bound, so only a run could refute it.
  CHECK(s.answer == Answer::Unknown);
  CHECK_MESSAGE(s.reason.find("from 2 engines (E0, E1)") != std::string::npos, s.reason);
  CHECK_MESSAGE(s.reason.find("longer than 1000000 steps") != std::string::npos, s.reason);
  // (This impl is also under-synchronized: E1 may run ahead of E0 on the shared semaphore.)
  CHECK(r.verdict != Answer::Proved);
  // Up to 10^9 iterations: each engine's part is within half the width.
  const auto small = overflow_input("two_signallers_1e9.spec.sb", model::ProgramKind::Spec);
  const auto r2 = test::prove_pair(small, impl.program);
  CHECK(question(r2, "semaphore", "s").answer == Answer::Proved);
}
