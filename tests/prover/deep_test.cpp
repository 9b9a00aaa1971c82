// Refutations far beyond what an exhaustive search reaches (docs/prover.md "Refutations"): the
// directed run drives the pair to the model's iteration, in single and nested loops, and the
// witness replays through the semantics to the disagreement.
#include <doctest/doctest.h>

#include "prover/prove_support.h"
#include "prover/report.h"

#include <nlohmann/json.hpp>

using namespace syncbisim;
using prover::Answer;

namespace {

// The iteration of `loop` the witness ends at.
std::uint32_t at(const prover::Witness& w, const std::string& loop) {
  for (const auto& [l, it] : w.iteration)
    if (l == loop) return it;
  FAIL("no loop ", loop, " in the witness");
  return 0;
}

void check_replays(const prover::ProveResult& r, const prover::Witness& w, bool under) {
  const auto& both = r.pair->lockstep();
  auto s = both.initial();
  for (const auto& st : w.trace) both.apply(s, st);
  bool seen = false;
  for (const auto& m : both.mismatches(s)) seen = seen || (m.impl_can && !m.spec_can) == under;
  CHECK(seen);
}

}  // namespace

TEST_CASE("prover: a wait wrong only at iteration 1,000 of a 1..100,000 loop is refuted there") {
  const auto spec = test::offset_one_spec(100000);
  const auto impl = test::offset_one_impl("isgt(rh, 1) * isgt(1000, rh)");
  const auto r = test::prove_pair(spec, impl.program);
  REQUIRE(r.consumers.size() == 1);
  const auto& c = r.consumers[0];
  CHECK(c.safe.answer == Answer::Refuted);
  CHECK(c.exact.answer == Answer::Proved);
  REQUIRE(c.safe.witness);
  CHECK(at(*c.safe.witness, "A") >= 1000);
  CHECK(c.safe.witness->trace.size() >= 3 * 1000);
  check_replays(r, *c.safe.witness, true);
  // The terminal shows the head and the tail only; --trace-out every event.
  const auto text = prover::render_text(r);
  CHECK(text.find("first 24 and last 24 events shown") != std::string::npos);
  CHECK(text.size() < 20000);
  const auto all = nlohmann::json::parse(prover::traces_json(r));
  REQUIRE(all.at("witnesses").size() == 1);
  const auto& w = all["witnesses"][0];
  CHECK(w.at("property") == "safe");
  CHECK(w.at("kind") == "under-sync");
  CHECK(w.at("steps") == c.safe.witness->trace.size());
  std::size_t visible = 0;
  for (const auto& ev : w.at("trace"))
    visible += ev.at("step") == "issue" || ev.at("step") == "retire" || ev.at("step") == "choose";
  CHECK(visible == c.safe.witness->trace.size());
  // The trace closes with the step where the two sides part, right after the wait temporary
  // computed before C.
  const auto& t = w["trace"];
  REQUIRE(t.size() >= 2);
  CHECK(t.back().at("step") == "part");
  CHECK(t.back().at("impl") == "issues");
  CHECK(t[t.size() - 2].at("step") == "regop");
}

TEST_CASE("prover: deep refutations in nested loops") {
  SUBCASE("wrong once the inner loop has run 700 times in all") {
    const auto spec = test::load_inline(R"(syncbisim spec/1
engines E0 E1
loop A trip 1..1000 {
  loop B trip 1..1000 {
    E0: P
    E1: C
  }
}
dep P -> C distance B=1
)");
    const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A {
  E1: [rh := 0]
  loop B {
    E0: P {s += 1}
    E1: [r := r + 1] [rh := rh + 1] [w := isgt(rh, 1) * isgt(700, r) * (r - 1)] {s >= w} C
  }
}
)");
    const auto r = test::prove_pair(spec, impl.program);
    const auto& c = r.consumers.at(0);
    CHECK(c.safe.answer == Answer::Refuted);
    CHECK(c.exact.answer == Answer::Proved);
    REQUIRE(c.safe.witness);
    check_replays(r, *c.safe.witness, true);
  }
  SUBCASE("over-synchronized from the 500th iteration of the outer loop on") {
    const auto spec = test::load_inline(R"(syncbisim spec/1
engines E0 E1
loop A trip 1..1000 {
  E0: P
  loop B trip 1..5 {
    E1: C
  }
}
dep P -> C
)");
    // C waits for P of its own iteration of A; from iteration 500 on, also for the next one.
    const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A {
  E0: P {s += 1}
  E1: [a := a + 1]
  loop B {
    E1: [w := a + isgt(a, 499)] {s >= w} C
  }
}
)");
    const auto r = test::prove_pair(spec, impl.program);
    const auto& c = r.consumers.at(0);
    CHECK(c.safe.answer == Answer::Proved);
    CHECK(c.exact.answer == Answer::Refuted);
    REQUIRE(c.exact.witness);
    CHECK(at(*c.exact.witness, "A") >= 500);
    check_replays(r, *c.exact.witness, false);
  }
  SUBCASE("a decode wrong only in the third trip of an inner loop deep in an outer one") {
    // The inner loop B runs up to 200 times per iteration of A; the wait forgets the loads of
    // the first two trips once the third has started.
    const auto spec = test::load_inline(R"(syncbisim spec/1
engines DMA PE
loop A trip 1..50 {
  loop B trip 1..200 {
    DMA: load
    PE: mm
  }
}
dep load -> mm
)");
    const auto impl = test::load_inline(R"(syncbisim impl/1
engines DMA PE
semaphores s
loop A {
  PE: [a := a + 1] [base := n]
  loop B {
    DMA: load {s += 1}
    PE: [n := n + 1] [w := isgt(3, a) * n + isgt(a, 2) * (n - base)] {s >= w} mm
  }
}
)");
    const auto r = test::prove_pair(spec, impl.program);
    const auto& c = r.consumers.at(0);
    CHECK(c.safe.answer == Answer::Refuted);
    REQUIRE(c.safe.witness);
    CHECK(at(*c.safe.witness, "A") >= 3);
    check_replays(r, *c.safe.witness, true);
  }
}
