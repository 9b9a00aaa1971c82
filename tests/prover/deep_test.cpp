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
  const auto& witness = test::only_under_sync(r);
  CHECK(at(witness, "A") >= 1000);
  CHECK(witness.trace.size() >= 3 * 1000);
  check_replays(r, witness, true);
  // The terminal shows the head and the tail only; --trace-out every event.
  const auto text = prover::render_text(r);
  CHECK(text.find("first 24 and last 24 events shown") != std::string::npos);
  CHECK(text.size() < 20000);
  const auto all = nlohmann::json::parse(prover::traces_json(r));
  REQUIRE(all.at("witnesses").size() == 1);
  const auto& w = all["witnesses"][0];
  CHECK(w.at("property") == "safe");
  CHECK(w.at("kind") == "under-sync");
  CHECK(w.at("steps") == witness.trace.size());
  std::size_t visible = 0;
  for (const auto& ev : w.at("trace"))
    visible += ev.at("step") == "issue" || ev.at("step") == "retire" || ev.at("step") == "choose";
  CHECK(visible == witness.trace.size());
  // The trace closes with the step where the two sides part, right after the wait temporary
  // computed before C.
  const auto& t = w["trace"];
  REQUIRE(t.size() >= 2);
  CHECK(t.back().at("step") == "part");
  CHECK(t.back().at("impl") == "issues");
  CHECK(t[t.size() - 2].at("step") == "regop");
}

// The pairs are files of tests/inputs/prover/deep whose `# prove:` lines give the answers, each
// with one refutation whose witness reaches at least an iteration of a loop.
TEST_CASE("prover: deep refutations in nested loops") {
  const struct {
    const char* impl;  // what is wrong
    const char* loop;
    std::uint32_t at_least;
  } rows[] = {
      {"inner_700.impl.sb", "A", 1},    // wrong once the inner loop has run 700 times in all
      {"outer_500.impl.sb", "A", 500},  // over-synchronized from the 500th iteration of A on
      {"third_trip.impl.sb", "A", 3},   // a decode wrong only in the third trip of A
  };
  for (const auto& row : rows) {
    INFO(row.impl);
    const auto lines = test::check_prove_lines(test::source_dir() / "tests/inputs/prover/deep" / row.impl, 0);
    REQUIRE(lines.refuted == 1);
    for (const auto& c : lines.result.consumers)
      for (const auto* p : {&c.safe, &c.exact})
        if (p->witness) {
          CHECK(at(*p->witness, row.loop) >= row.at_least);
          check_replays(lines.result, *p->witness, p == &c.safe);
        }
  }
}
