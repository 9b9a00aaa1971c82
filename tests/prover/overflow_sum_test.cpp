// The prover's overflow questions where the value is a sum (docs/prover.md "Overflow"): a semaphore
// several engines signal, whose largest value is one engine's part plus the others' at the same
// moment; and the values an expression computes on its way to the one it writes. Each answer is
// compared with the semantics (a refutation's trace replays to the overflow) and, on generated
// programs at small widths, with the explorer, which is exhaustive there.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include "checker/explorer.h"
#include "prover/overflow_support.h"
#include "prover/prove_support.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using prover::Answer;
using test::check_trace;
using test::overflow_input;
using test::question;

namespace {

// Does the explorer, exhaustive at these widths, find an overflow of `what` (a semaphore, or a
// register operation's destination)?
struct Explored {
  bool complete = false;
  bool semaphore = false, reg = false;
};
Explored explore(const formats::LoadedProgram& spec, const model::Program& impl, const model::ValueWidths& w,
                 const std::string& name) {
  semantics::Options so;
  so.widths = w;
  auto pair = checker::ProgramPair::make(spec.program, impl, checker::PairOptions{so});
  REQUIRE(pair.ok());
  checker::CheckOptions o;
  o.max_states = 2000000;
  const auto r = checker::check(**pair, o);
  Explored out;
  out.complete = r.exhaustive;
  const auto& ip = (*pair)->impl_code();
  for (const auto& v : r.violations) {
    if (v.kind != checker::ViolationKind::Overflow) continue;
    if (v.overflow.kind == semantics::OverflowKind::Semaphore && ip.semaphores[v.overflow.sem] == name)
      out.semaphore = true;
    if (v.overflow.kind != semantics::OverflowKind::Semaphore) out.reg = true;
  }
  return out;
}

}  // namespace

TEST_CASE("prover overflow: two engines' parts of one semaphore, each past half its width, summed within it") {
  // E0 adds 1.5e9 and E1 6e8 an iteration, reset by the barrier ending it: at most 2.1e9.
  const auto spec = overflow_input("sum2.spec.sb", model::ProgramKind::Spec);
  const auto r = test::prove_pair(spec, overflow_input("sum2_within.impl.sb", model::ProgramKind::Impl).program);
  const auto& s = question(r, "semaphore", "s");
  CHECK_MESSAGE(s.answer == Answer::Proved, s.reason);
  CHECK(s.found_by == "z3");
  // Three engines, each of two past a third of the width: 8e8 + 8e8 + 5e8.
  const auto r3 = test::prove_pair(overflow_input("sum3.spec.sb", model::ProgramKind::Spec),
                                   overflow_input("sum3_within.impl.sb", model::ProgramKind::Impl).program);
  CHECK_MESSAGE(question(r3, "semaphore", "s").answer == Answer::Proved, question(r3, "semaphore", "s").reason);
}

TEST_CASE("prover overflow: two or three engines' parts, each within the width, summed past it: refuted with a trace") {
  for (const auto& [spec_name, impl_name, value] : {std::tuple{"sum2.spec.sb", "sum2_past.impl.sb", "2200000000"},
                                                    std::tuple{"sum3.spec.sb", "sum3_past.impl.sb", "2200000000"}}) {
    INFO(impl_name);
    const auto spec = overflow_input(spec_name, model::ProgramKind::Spec);
    const auto impl = overflow_input(impl_name, model::ProgramKind::Impl);
    const auto r = test::prove_pair(spec, impl.program);
    const auto& s = question(r, "semaphore", "s");
    REQUIRE_MESSAGE(s.answer == Answer::Refuted, s.reason);
    CHECK(s.value == value);
    REQUIRE(s.model);
    CHECK(s.model->trips.at("A") >= 1);
    CHECK(s.model->trips.at("A") <= 2);  // the smallest cap of the constant-trip search
    CHECK(s.reason.find("with the signals of several engines") != std::string::npos);
    check_trace(r, s);
    CHECK(r.verdict == Answer::Refuted);
    // The explorer, at a trip cap it covers, finds it too.
    auto pair = checker::ProgramPair::make(spec.program, impl.program, checker::PairOptions{{}, 2});
    REQUIRE(pair.ok());
    const auto c = checker::check(**pair, checker::CheckOptions{});
    bool found = false;
    for (const auto& v : c.violations) found = found || v.kind == checker::ViolationKind::Overflow;
    CHECK(found);
  }
}

TEST_CASE(
    "prover overflow: parts small in every iteration, no reset: the sum passes the width at trip 11 (8 for three)") {
  for (const auto& [spec_name, impl_name, first_trip] : {std::tuple{"accumulate.spec.sb", "accumulate.impl.sb", 11},
                                                         std::tuple{"accumulate3.spec.sb", "accumulate3.impl.sb", 8}}) {
    INFO(impl_name);
    const auto spec = overflow_input(spec_name, model::ProgramKind::Spec);
    const auto r = test::prove_pair(spec, overflow_input(impl_name, model::ProgramKind::Impl).program);
    const auto& s = question(r, "semaphore", "s");
    REQUIRE_MESSAGE(s.answer == Answer::Refuted, s.reason);
    REQUIRE(s.model);
    CHECK(s.model->trips.at("A") >= static_cast<std::uint64_t>(first_trip));
    CHECK(std::stoull(s.value) > 2147483647);
    check_trace(r, s);
    // One iteration fewer than where it passes: each part past max/k, the sum within max.
    const auto shorter = test::load_inline(
        first_trip == 11
            ? std::string("syncbisim spec/1\nengines E0 E1\nloop A trip 0..10 {\n  E0: P\n  E1: Q\n}\n")
            : std::string("syncbisim spec/1\nengines E0 E1 E2\nloop A trip 0..7 {\n  E0: P\n  E1: Q\n  E2: R\n}\n"));
    const auto r2 = test::prove_pair(shorter, overflow_input(impl_name, model::ProgramKind::Impl).program);
    CHECK_MESSAGE(question(r2, "semaphore", "s").answer == Answer::Proved, question(r2, "semaphore", "s").reason);
  }
}

TEST_CASE("prover overflow: a bound on the sum that no run reaches stays unknown, with the run's reason") {
  // Q waits on a semaphore nobody signals: only P's part is ever in s.
  const auto r = test::prove_pair(overflow_input("sum2.spec.sb", model::ProgramKind::Spec),
                                  overflow_input("sum2_blocked.impl.sb", model::ProgramKind::Impl).program);
  const auto& s = question(r, "semaphore", "s");
  CHECK(s.answer == Answer::Unknown);
  CHECK_MESSAGE(s.reason.find("did not reach it") != std::string::npos, s.reason);
  // Without runs the same bound is not decided either.
  prover::ProveOptions o;
  o.replay = false;
  const auto r2 = test::prove_pair(overflow_input("sum2.spec.sb", model::ProgramKind::Spec),
                                   overflow_input("sum2_past.impl.sb", model::ProgramKind::Impl).program, o);
  CHECK(question(r2, "semaphore", "s").answer == Answer::Unknown);
  CHECK(question(r2, "semaphore", "s").reason.find("--no-replay") != std::string::npos);
}

TEST_CASE("prover overflow: an intermediate value of an expression past the width, the written value within it") {
  // docs/semantics.md "Widths": every value the ALU computes must fit, not only the result.
  const auto spec = test::load_inline("syncbisim spec/1\nengines E0 E1\nloop A trip 0..3 {\n  E0: P\n  E1: C\n}\n");
  const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1
semaphores s
E1: [x := 4294967295 * 1024]
loop A {
  E0: P {s += 1}
  E1: [r := r + 1] [w := (r * 1024) - x] C
}
)");
  prover::ProveOptions o;
  o.widths.register_bits = 48;
  const auto r = test::prove_pair(spec, impl.program, o);
  // x = 4398046510080 < 2^48; r * 1024 <= 3072; w = 0 always.
  CHECK_MESSAGE(question(r, "register", "w").answer == Answer::Proved, question(r, "register", "w").reason);
  CHECK(question(r, "register", "x").answer == Answer::Proved);
  // E1's loop writing w as `assignment` says, E0 signalling s.
  auto impl_writing = [](const std::string& assignment) {
    return test::load_inline(
        "syncbisim impl/1\nengines E0 E1\nsemaphores s\nloop A {\n  E0: P {s += 1}\n  E1: " + assignment + " C\n}\n");
  };
  // Only the product passes 32 bits (from r = 2; the difference written is at most 2^31 + 1), and
  // the explorer finds the same overflow at these widths. Without the intermediate past the width
  // the same values are fine.
  struct Case {
    const char* factor;
    bool past;
  };
  for (const auto& [factor, past] : {Case{"2147483648", true}, Case{"1073741824", false}}) {
    const auto assignment = std::string("[r := r + 1] [w := (r * ") + factor + ") - 4294967295]";
    INFO("case: ", assignment, past ? ", the product past the width" : ", every value within the width");
    const auto impl2 = impl_writing(assignment);
    const auto r2 = test::prove_pair(spec, impl2.program);
    const auto& w = question(r2, "register", "w");
    const auto x = explore(spec, impl2.program, {}, "w");
    if (!past) {
      CHECK_MESSAGE(w.answer == Answer::Proved, w.reason);
      CHECK_FALSE(x.reg);
      continue;
    }
    REQUIRE_MESSAGE(w.answer == Answer::Refuted, w.reason);
    CHECK(w.at.find(std::string("its intermediate value r * ") + factor) != std::string::npos);
    CHECK(w.value == "4294967296");  // r = 2: the product passes 2^32 - 1, the difference is 1
    check_trace(r2, w);
    CHECK(x.complete);
    CHECK(x.reg);
  }
  // A constant past the width is a value the ALU computes too.
  const auto impl4 = impl_writing("[w := 8589934592 - 8589934592]");
  const auto r4 = test::prove_pair(spec, impl4.program);
  CHECK(question(r4, "register", "w").answer == Answer::Refuted);
  CHECK(question(r4, "register", "w").value == "8589934592");
}

namespace {

// A generated program: k engines signalling s in a loop A (with a nested loop B), with or
// without a barrier in A's body, and an instruction after A; the spec has the same instructions.
struct Gen {
  std::string spec, impl;
};

Gen gen_program() {
  const auto k = *rc::gen::inRange(2, 4);
  const auto hi = *rc::gen::inRange(1, 4);
  const auto lo = *rc::gen::inRange(0, hi + 1);
  const auto bhi = *rc::gen::inRange(0, 3);
  const auto barrier = *rc::gen::inRange(0, 3);  // 0 none, 1 `barrier` (resets s), 2 `barrier()`
  std::string engines;
  for (int e = 0; e < k; ++e) engines += " E" + std::to_string(e);
  Gen g;
  g.spec = "syncbisim spec/1\nengines" + engines + "\nloop A trip " + std::to_string(lo) + ".." + std::to_string(hi) +
           " {\n";
  g.impl = "syncbisim impl/1\nengines" + engines + "\nsemaphores s\nloop A {\n";
  int n = 0;
  auto signal = [&] { return " {s += " + std::to_string(*rc::gen::inRange(1, 13)) + "}"; };
  for (int e = 0; e < k; ++e) {
    const bool has = e == 0 || *rc::gen::inRange(0, 4) != 0;  // s has a signal
    const auto name = "P" + std::to_string(n++);
    std::string sp = has ? " " + name : "", im = has ? " " + name + signal() : "";
    if (barrier) im += barrier == 1 ? " barrier" : " barrier()";
    if (!sp.empty()) g.spec += "  E" + std::to_string(e) + ":" + sp + "\n";
    if (!im.empty()) g.impl += "  E" + std::to_string(e) + ":" + im + "\n";
  }
  if (*rc::gen::arbitrary<bool>()) {
    const auto e = std::to_string(*rc::gen::inRange(0, k));
    const auto name = "Q" + std::to_string(n++);
    g.spec += "  loop B trip 0.." + std::to_string(bhi) + " {\n    E" + e + ": " + name + "\n  }\n";
    g.impl += "  loop B {\n    E" + e + ": " + name + signal() + "\n  }\n";
  }
  g.spec += "}\n";
  g.impl += "}\n";
  if (*rc::gen::arbitrary<bool>()) {
    const auto e = std::to_string(*rc::gen::inRange(0, k));
    g.spec += "E" + e + ": Z\n";
    g.impl += "E" + e + ": Z" + signal() + "\n";
  }
  return g;
}

}  // namespace

TEST_CASE("prover overflow: agrees with the exhaustive explorer on generated semaphores at 5 and 6 bits") {
  int decided = 0, runs = 0;
  test::rc_check(
      "prover overflow vs explorer",
      [&] {
        const auto g = gen_program();
        const auto spec = test::load_inline(g.spec);
        const auto impl = test::load_inline(g.impl);
        prover::ProveOptions o;
        o.widths.semaphore_bits = *rc::gen::inRange(5, 7);
        o.z3_timeout_ms = 5000;
        const auto r = test::prove_pair(spec, impl.program, o);
        const auto x = explore(spec, impl.program, o.widths, "s");
        RC_ASSERT(x.complete);
        const auto& s = question(r, "semaphore", "s");
        const auto what = "\nspec:\n" + g.spec + "impl:\n" + g.impl + "bits " +
                          std::to_string(o.widths.semaphore_bits) + ": " + prover::to_string(s.answer) + " " + s.reason;
        ++runs;
        if (s.answer != Answer::Unknown) ++decided;
        if (x.semaphore && s.answer == Answer::Proved) RC_FAIL("proved, but the explorer finds an overflow" + what);
        if (!x.semaphore && s.answer == Answer::Refuted) RC_FAIL("refuted, but the explorer finds none" + what);
        if (s.answer == Answer::Refuted && s.traced) {
          const auto& both = r.pair->lockstep();
          auto st = both.initial();
          for (const auto& step : s.trace) both.apply(st, step);
          if (!both.impl().overflowed(st.impl)) RC_FAIL("the trace does not replay to the overflow" + what);
        }
      },
      150);
  // Everything the explorer decides, the prover decides too, but for a few (a bound no run reaches).
  MESSAGE("decided ", decided, " of ", runs);
  CHECK(decided * 10 >= runs * 9);
}
