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
formats::LoadedProgram long_spec(const std::set<int>& consumers, int length = kLength) {
  const int kLength = length;
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
formats::LoadedProgram long_impl(const std::set<int>& consumers, int bad_at, int off, int length = kLength) {
  const int kLength = length;
  std::string t = "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE0:";
  for (int j = 0; j < kLength; ++j) t += " I0_" + std::to_string(j) + " {s += 1}";
  t += "\nE1:";
  for (int j = 0; j < kLength; ++j) {
    if (consumers.count(j)) t += " {s >= " + std::to_string(j + 1 + (j == bad_at ? off : 0)) + "}";
    t += " I1_" + std::to_string(j);
  }
  return test::load_inline(t + "\n");
}

// The wait of `at` off by `off` in `impl` (spec and impl of one pair, `consumers` consumers): that
// consumer refuted the right way (one short: under-sync; one over: over-sync), its witness
// replayed, every other consumer proved. A failure names the case.
void check_off_by(const formats::LoadedProgram& spec, const formats::LoadedProgram& impl, const std::string& at,
                  int off, std::size_t consumers) {
  INFO("case: the wait of ", at, off < 0 ? " one short" : " one over");
  const auto r = test::prove_pair(spec, impl.program);
  CHECK(r.verdict == Answer::Refuted);
  REQUIRE(r.consumers.size() == consumers);
  for (const auto& c : r.consumers) {
    CAPTURE(test::describe(c));
    if (c.instr != at) {
      CHECK(c.answer == Answer::Proved);
      continue;
    }
    // One signal short: `at` may issue while its producer has not retired. One too many: it waits
    // for the next producer's signal, which it does not depend on.
    const auto& bad = off < 0 ? c.safe : c.exact;
    const auto& good = off < 0 ? c.exact : c.safe;
    CHECK(bad.answer == Answer::Refuted);
    CHECK(good.answer == Answer::Proved);
    REQUIRE(bad.witness);
    CHECK(bad.witness->kind == (off < 0 ? "under-sync" : "over-sync"));
    CHECK(test::witness_holds(r, at, "E1", *bad.witness));
  }
}

}  // namespace

TEST_CASE("prover: a wait off by one in the middle of a 500-instruction block is refuted there") {
  std::set<int> consumers{0, 99, 249, 250, 251, 400, kLength - 1};
  const auto spec = long_spec(consumers);
  CHECK(test::prove_pair(spec, long_impl(consumers, -1, 0).program).verdict == Answer::Proved);
  for (const int off : {-1, 1}) check_off_by(spec, long_impl(consumers, 250, off), "I1_250", off, consumers.size());
}

TEST_CASE("prover: a 2000-instruction block: a wait one short or one over inside a long run of signals") {
  // Each consumer's query folds the signals between the producers it names into runs
  // (docs/prover.md "Complexity"); a run's length off by one would prove the short wait or refute
  // the right one. Consumers close together (runs of 1 and 2), far apart, and at the ends.
  constexpr int n = 2000;
  std::set<int> consumers{0, 1, 2, 4, 7, 1000, 1500, 1501, n - 2, n - 1};
  const auto spec = long_spec(consumers, n);
  CHECK(test::prove_pair(spec, long_impl(consumers, -1, 0, n).program).verdict == Answer::Proved);
  for (const int at : {4, 1000, n - 2})
    for (const int off : {-1, 1})
      check_off_by(spec, long_impl(consumers, at, off, n), "I1_" + std::to_string(at), off, consumers.size());
}

TEST_CASE("prover: two semaphores interleaved along a long block, and producers that signal neither") {
  // E0's instruction j signals s when j is even, t when j % 4 == 1, nothing when j % 4 == 3; I1_k
  // waits for the signals of I0_k's semaphore up to I0_k (a run of one semaphore's signals has
  // the other's and unsignalled instructions between them). I1_k for k % 4 == 3 depends on I0_k,
  // which signals nothing, and on I0_(k+1), and waits for s up to I0_(k+1) (in order, so I0_k
  // has retired then too): a producer that signals nothing splits a run.
  constexpr int n = 600;
  std::set<int> consumers{2, 3, 5, 101, 202, 203, 300, 301, 451, 597, 598};
  std::string st = "syncbisim spec/1\nengines E0 E1\nE0:";
  for (int j = 0; j < n; ++j) st += " I0_" + std::to_string(j);
  st += "\nE1:";
  for (int j = 0; j < n; ++j) st += " I1_" + std::to_string(j);
  st += "\n";
  for (const auto k : consumers) {
    st += "dep I0_" + std::to_string(k) + " -> I1_" + std::to_string(k) + "\n";
    if (k % 4 == 3) st += "dep I0_" + std::to_string(k + 1) + " -> I1_" + std::to_string(k) + "\n";
  }
  const auto spec = test::load_inline(st);
  auto sem_of = [](int j) { return j % 2 == 0 ? "s" : (j % 4 == 1 ? "t" : ""); };
  auto impl = [&](int bad_at, int off) {
    std::string t = "syncbisim impl/1\nengines E0 E1\nsemaphores s t\nE0:";
    for (int j = 0; j < n; ++j) {
      t += " I0_" + std::to_string(j);
      if (*sem_of(j)) t += std::string(" {") + sem_of(j) + " += 1}";
    }
    t += "\nE1:";
    for (int j = 0; j < n; ++j) {
      if (consumers.count(j)) {
        const int upto = j % 4 == 3 ? j + 1 : j;  // the last signalling producer
        const std::string sem = sem_of(upto);
        int count = 0;  // signals of sem among I0_0 .. I0_upto
        for (int i = 0; i <= upto; ++i) count += sem == sem_of(i);
        t += " {" + sem + " >= " + std::to_string(count + (j == bad_at ? off : 0)) + "}";
      }
      t += " I1_" + std::to_string(j);
    }
    return test::load_inline(t + "\n");
  };
  CHECK(test::prove_pair(spec, impl(-1, 0).program).verdict == Answer::Proved);
  for (const int at : {202, 301, 451})
    for (const int off : {-1, 1}) check_off_by(spec, impl(at, off), "I1_" + std::to_string(at), off, consumers.size());
}

TEST_CASE("prover: a barrier resetting the semaphore in the middle of a long run of signals") {
  // Every instruction of E0 signals s; a barrier after I0_(m-1) on both engines resets s, so I1_k
  // for k >= m waits for k - m + 1. With barriers every instruction takes part in the facts
  // (nothing folded); the answers are the same as without the reset, counted from it. The spec's
  // I0_m depends on I1_(m-1), which is what the barrier waits for on E1.
  constexpr int n = 300, m = 150;
  std::set<int> consumers{10, m - 1, m, m + 1, 200, n - 1};
  auto text = [&](bool is_impl, int bad_at, int off) {
    std::string t =
        is_impl ? "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE0:" : "syncbisim spec/1\nengines E0 E1\nE0:";
    for (int j = 0; j < n; ++j) {
      if (is_impl && j == m) t += " barrier(s)";
      t += " I0_" + std::to_string(j) + (is_impl ? " {s += 1}" : "");
    }
    t += "\nE1:";
    for (int j = 0; j < n; ++j) {
      if (is_impl && j == m) t += " barrier(s)";
      if (is_impl && consumers.count(j))
        t += " {s >= " + std::to_string((j < m ? j + 1 : j - m + 1) + (j == bad_at ? off : 0)) + "}";
      t += " I1_" + std::to_string(j);
    }
    t += "\n";
    if (!is_impl) {
      for (const auto k : consumers) t += "dep I0_" + std::to_string(k) + " -> I1_" + std::to_string(k) + "\n";
      // What the barrier holds E0 for (else the impl would over-synchronize I0_m).
      t += "dep I1_" + std::to_string(m - 1) + " -> I0_" + std::to_string(m) + "\n";
    }
    return test::load_inline(t);
  };
  const auto spec = text(false, -1, 0);
  CHECK(test::prove_pair(spec, text(true, -1, 0).program).verdict == Answer::Proved);
  for (const int at : {m + 1, 200})
    for (const int off : {-1, 1})  // the consumers, and I0_m, the consumer of what the barrier waits for
      check_off_by(spec, text(true, at, off), "I1_" + std::to_string(at), off, consumers.size() + 1);
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
