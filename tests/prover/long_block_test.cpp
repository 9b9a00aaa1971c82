// The prover on long straight-line blocks (docs/prover.md "Complexity"): the alternation facts
// over one loop body are a chain of consecutive pairs, not every pair, and must say the same
// thing. A wait off by one in the middle of a 500-instruction block is refuted at that
// instruction (both ways); generated long blocks, allocated and mutated, agree with the explorer.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <set>
#include <string>

#include "generators/describe.h"
#include "prover/prove_support.h"
#include "support/generated_pairs.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using prover::Answer;

namespace {

constexpr int kLength = 500;

// I0_j on E0 and I1_j on E1; I1_k depends on I0_k for k in `consumers`.
formats::LoadedProgram long_spec(const std::set<int>& consumers) {
  std::string t = "syncbisim spec/1\nengines E0 E1\nE0:";
  for (int j = 0; j < kLength; ++j) t += " I0_" + std::to_string(j);
  t += "\nE1:";
  for (int j = 0; j < kLength; ++j) t += " I1_" + std::to_string(j);
  t += "\n";
  for (const auto k : consumers) t += "dep I0_" + std::to_string(k) + " -> I1_" + std::to_string(k) + "\n";
  return test::load_inline(t);
}

// Every instruction of E0 signals s, so the stream the consumers' waits read is the whole block;
// I1_k waits for k + 1 signals (retirement in order: exactly when I0_k has retired), `bad_at`'s
// wait for `off` more or fewer.
formats::LoadedProgram long_impl(const std::set<int>& consumers, int bad_at, int off) {
  std::string t = "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE0:";
  for (int j = 0; j < kLength; ++j) t += " I0_" + std::to_string(j) + " {s += 1}";
  t += "\nE1:";
  for (int j = 0; j < kLength; ++j) {
    if (consumers.count(j)) t += " {s >= " + std::to_string(j + 1 + (j == bad_at ? off : 0)) + "}";
    t += " I1_" + std::to_string(j);
  }
  return test::load_inline(t + "\n");
}

}  // namespace

TEST_CASE("prover: a wait off by one in the middle of a 500-instruction block is refuted there") {
  std::set<int> consumers{0, 99, 249, 250, 251, 400, kLength - 1};
  const auto spec = long_spec(consumers);
  CHECK(test::prove_pair(spec, long_impl(consumers, -1, 0).program).verdict == Answer::Proved);
  for (const int off : {-1, 1}) {
    CAPTURE(off);
    const auto r = test::prove_pair(spec, long_impl(consumers, 250, off).program);
    CHECK(r.verdict == Answer::Refuted);
    REQUIRE(r.consumers.size() == consumers.size());
    for (const auto& c : r.consumers) {
      CAPTURE(test::describe(c));
      if (c.instr != "I1_250") {
        CHECK(c.answer == Answer::Proved);
        continue;
      }
      // One signal short: I1_250 may issue while I0_250 has not retired. One too many: it waits
      // for I0_251 it does not depend on.
      const auto& bad = off < 0 ? c.safe : c.exact;
      const auto& good = off < 0 ? c.exact : c.safe;
      CHECK(bad.answer == Answer::Refuted);
      CHECK(good.answer == Answer::Proved);
      REQUIRE(bad.witness);
      CHECK(bad.witness->kind == (off < 0 ? "under-sync" : "over-sync"));
      CHECK(test::witness_holds(r, "I1_250", "E1", *bad.witness));
    }
  }
}

TEST_CASE("prover: long blocks, allocated and mutated, agree with the explorer") {
  // Two engines, one block of 6..12 instructions each, at the top or inside `loop A trip 1..2`
  // (then each dependency same-iteration or carried), dependencies from E0 to E1 and from E1 to
  // E0 at random; every strategy's output and its mutants (a wait or signal changed).
  test::rc_check(
      "long blocks vs the explorer",
      [] {
        const int n = *rc::gen::inRange(6, 13);
        const bool in_loop = *rc::gen::arbitrary<bool>();
        std::string t = "syncbisim spec/1\nengines E0 E1\n";
        if (in_loop) t += "loop A trip 1..2 {\n";
        for (int e = 0; e < 2; ++e) {
          t += "E" + std::to_string(e) + ":";
          for (int j = 0; j < n; ++j) t += " I" + std::to_string(e) + "_" + std::to_string(j);
          t += "\n";
        }
        if (in_loop) t += "}\n";
        const int deps = *rc::gen::inRange(1, n + 1);
        std::set<std::string> seen;
        bool both_ways = false;  // dependencies both ways may close a cycle (a deadlocking spec)
        for (int d = 0; d < deps; ++d) {
          const int from = *rc::gen::inRange(0, 2);
          both_ways = both_ways || from == 1;
          const int p = *rc::gen::inRange(0, n), q = *rc::gen::inRange(0, n);
          auto line = "dep I" + std::to_string(from) + "_" + std::to_string(p) + " -> I" + std::to_string(1 - from) +
                      "_" + std::to_string(q);
          if (!seen.insert(line).second) continue;
          if (in_loop) line += std::string(" distance A=") + (*rc::gen::arbitrary<bool>() ? "1" : "0");
          t += line + "\n";
        }
        auto parsed = formats::read_text(t);
        RC_PRE(parsed.ok());
        const auto spec = test::load_inline(t);
        const auto drawn = test::gen_allocation(spec, 0.5);
        const auto r = test::prove_pair(spec, drawn.impl);
        const auto reduced = test::explore(spec, drawn.impl);
        const auto full = test::explore(spec, drawn.impl, 0, true, 200000);
        const auto what = t + "impl: " + generators::describe(drawn.impl);
        for (const auto& c : r.consumers) {
          for (const auto* x : {&reduced, &full}) {
            if (c.safe.answer == Answer::Proved && x->under.count(c.instr))
              RC_FAIL(c.instr + " proved safe, explorer: under-sync\n" + what);
            if (c.exact.answer == Answer::Proved && x->over.count(c.instr))
              RC_FAIL(c.instr + " proved exact, explorer: over-sync\n" + what);
          }
          if (!full.result.exhaustive) continue;
          if (c.safe.answer == Answer::Refuted && !full.under.count(c.instr))
            RC_FAIL(c.instr + " refuted safe, the explorer finds no under-sync\n" + what);
          if (c.exact.answer == Answer::Refuted && !full.over.count(c.instr))
            RC_FAIL(c.instr + " refuted exact, the explorer finds no over-sync\n" + what);
          // Dependencies one way only (no cycle, so no deadlock): an unmutated allocation is decided.
          if (!drawn.mutated && !both_ways)
            for (const auto* p : {&c.safe, &c.exact})
              if (p->answer == Answer::Unknown) RC_FAIL(c.instr + ": " + p->reason + "\n" + what);
        }
      },
      40);
}
