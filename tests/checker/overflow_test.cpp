// Overflow findings (docs/semantics.md "Widths", docs/checker.md): a register or semaphore value
// past its width ends the execution and is reported with its shortest trace, by the exhaustive
// search (any thread count, reduced or not) and by random walks; nothing wraps.
#include <doctest/doctest.h>

#include "checker/check_result.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"

using namespace syncbisim;

namespace {

// One engine counts the iterations of a loop of `trip` trips in r.
std::string counter_spec(unsigned trip) {
  return "syncbisim spec/1\nengines E0\nloop A trip " + std::to_string(trip) + " {\n  E0: I0\n}\n";
}
const char* const kCounterImpl = "syncbisim impl/1\nengines E0\nloop A {\n  E0: [r := r + 1] I0\n}\n";

checker::CheckResult check(const std::string& spec, const std::string& impl, model::ValueWidths w,
                           checker::CheckOptions o = {}) {
  auto sp = formats::load_program_text(spec, "spec");
  auto ip = formats::load_program_text(impl, "impl");
  REQUIRE(sp.ok());
  REQUIRE(ip.ok());
  semantics::Options so;
  so.fuse_commit = o.reduction;
  so.widths = w;
  auto pair = checker::ProgramPair::make(sp->program, ip->program, checker::PairOptions{so});
  REQUIRE(pair.ok());
  return checker::check(**pair, o);
}

}  // namespace

TEST_CASE("a counter past the register width is an overflow with the shortest trace, however searched") {
  const model::ValueWidths w{4, 32};  // registers hold 0..15
  for (bool reduction : {true, false})
    for (unsigned threads : {1U, 2U}) {
      CAPTURE(reduction);
      CAPTURE(threads);
      checker::CheckOptions o;
      o.reduction = reduction;
      o.threads = threads;
      const auto r = check(counter_spec(20), kCounterImpl, w, o);
      CHECK(r.verdict == checker::Verdict::Overflow);
      CHECK(checker::exit_status(r.verdict) == 1);
      REQUIRE(r.violations.size() == 1);
      const auto& v = r.violations[0];
      CHECK(v.kind == checker::ViolationKind::Overflow);
      CHECK(v.overflow.kind == semantics::OverflowKind::Register);
      CHECK(v.overflow.value == 16);
      CHECK(v.overflow.max == 15);
      CHECK(v.overflow.bits == 4);
      // Iterations 1..15 issue I0 (nothing waits for a retirement), and the back edge after the
      // 15th leads to the 16th's r := r + 1: the shortest trace is those 15 issues.
      CHECK(v.trace.size() == 15);
    }
  // 15 iterations fit; so does everything at the default width
  CHECK(check(counter_spec(15), kCounterImpl, w).verdict == checker::Verdict::Bisimilar);
  CHECK(check(counter_spec(20), kCounterImpl, {}).verdict == checker::Verdict::Bisimilar);
}

TEST_CASE("random walks find the overflow too") {
  checker::CheckOptions o;
  o.walks = 3;
  o.seed = 7;
  const auto r = check(counter_spec(20), kCounterImpl, {4, 32}, o);
  CHECK(r.verdict == checker::Verdict::Overflow);
  CHECK_FALSE(r.exhaustive);
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].overflow.value == 16);
}

TEST_CASE("a semaphore past its signed width is an overflow, at the default width the pair is bisimilar") {
  const std::string spec = "syncbisim spec/1\nengines E0 E1\nloop A trip 10 {\n  E0: I0\n}\nE1: I1\ndep I0 -> I1\n";
  const std::string impl =
      "syncbisim impl/1\nengines E0 E1\nsemaphores s0\nloop A {\n  E0: I0 {s0 += 1}\n}\nE1: {s0 >= 10} I1\n";
  CHECK(check(spec, impl, {}).verdict == checker::Verdict::Bisimilar);
  const auto r = check(spec, impl, {32, 4});  // semaphores hold up to 7
  CHECK(r.verdict == checker::Verdict::Overflow);
  REQUIRE(r.violations.size() == 1);
  const auto& o = r.violations[0].overflow;
  CHECK(o.kind == semantics::OverflowKind::Semaphore);
  CHECK(o.value == 8);
  CHECK(o.max == 7);
}

TEST_CASE("a value past 2^64 - 1 is an overflow at any width, never a wrapped 0 (issue 18)") {
  const std::string spec = "syncbisim spec/1\nengines E0 E1\nE0: I0\nE1: I1\n";
  const std::string impl =
      "syncbisim impl/1\nengines E0 E1\nsemaphores s0\nE0: I0 {s0 += 1}\n"
      "E1: [w := 18446744073709551615 + 1] {s0 >= w} I1\n";
  const auto r = check(spec, impl, {64, 64});
  CHECK(r.verdict == checker::Verdict::Overflow);
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].overflow.kind == semantics::OverflowKind::PastU64);
  CHECK(r.violations[0].trace.empty());  // the initial state already overflows
  // With 2^64 - 1 itself and 64-bit registers, nothing overflows: the wait cannot hold.
  const std::string big =
      "syncbisim impl/1\nengines E0 E1\nsemaphores s0\nE0: I0 {s0 += 1}\nE1: [w := 18446744073709551615] {s0 >= w} I1\n";
  CHECK(check(spec, big, {64, 64}).verdict == checker::Verdict::OverSynchronized);
  // At the default 32 bits it is an overflow of its own (the constant does not fit).
  CHECK(check(spec, big, {}).verdict == checker::Verdict::Overflow);
}
