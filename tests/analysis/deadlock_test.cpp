// Certain deadlocks: cycles of same-iteration dependencies and program order (docs/analysis.md).
#include <doctest/doctest.h>

#include "tests/analysis/builders.h"

using namespace syncbisim::test;

namespace {

std::vector<std::string> names(const Analyzed& r, std::size_t i) {
  std::vector<std::string> out;
  for (const auto id : r.a.deadlocks.at(i).cycle) out.push_back(r.ix.instrs[id].name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("consumer before producer on one engine, same iteration") {
  const auto p = spec({"E0"}, {loop("A", 3, {block({{"E0", {"c", "p"}}})})}, {dep("p", "c")});
  const auto r = analyze(p);
  REQUIRE(r.a.deadlocks.size() == 1);
  CHECK(names(r, 0) == std::vector<std::string>{"c", "p"});
  const auto& m = r.a.deadlocks[0].message;
  CHECK(m.rfind("certain deadlock whenever loop A runs:", 0) == 0);
  CHECK(m.find("c waits for p of the same iteration") != std::string::npos);
  CHECK(m.find("p issues after c on engine E0") != std::string::npos);
}

TEST_CASE("consumer before producer on one engine, a loop statement between") {
  const auto p = spec(
      {"E0"}, {loop("A", 3, {block({{"E0", {"c"}}}), loop("B", 2, {block({{"E0", {"x"}}})}), block({{"E0", {"p"}}})})},
      {dep("p", "c")});
  const auto r = analyze(p);
  REQUIRE(r.a.deadlocks.size() == 1);
  CHECK(names(r, 0) == std::vector<std::string>{"c", "p", "x"});
}

TEST_CASE("self-dependency in the same iteration") {
  const auto r = analyze(spec({"E0"}, {loop("A", 3, {block({{"E0", {"x"}}})})}, {dep("x", "x")}));
  REQUIRE(r.a.deadlocks.size() == 1);
  CHECK(names(r, 0) == std::vector<std::string>{"x"});
  // A self-dependency one iteration back is the normal carried case.
  const auto ok = analyze(spec({"E0"}, {loop("A", 3, {block({{"E0", {"x"}}})})}, {dep("x", "x", {{"A", 1}})}));
  CHECK(ok.a.deadlocks.empty());
  CHECK_FALSE(ok[0].forward);
}

TEST_CASE("two-engine crossing in one iteration") {
  // E0: A B, E1: C D, D -> A and B -> C: A waits for D, D after C, C waits for B, B after A.
  const auto p = spec({"E0", "E1"}, {loop("L", 2, {block({{"E0", {"A", "B"}}, {"E1", {"C", "D"}}})})},
                      {dep("D", "A"), dep("B", "C")});
  const auto r = analyze(p);
  REQUIRE(r.a.deadlocks.size() == 1);
  CHECK(names(r, 0) == std::vector<std::string>{"A", "B", "C", "D"});
  CHECK(r.a.deadlocks[0].message.find("A waits for D") != std::string::npos);
}

TEST_CASE("the crossing is fine when one edge is carried by the loop") {
  const auto p = spec({"E0", "E1"}, {loop("L", 2, {block({{"E0", {"A", "B"}}, {"E1", {"C", "D"}}})})},
                      {dep("D", "A", {{"L", 1}}), dep("B", "C")});
  CHECK(analyze(p).a.deadlocks.empty());
}

TEST_CASE("top-level deadlock has no loop condition") {
  const auto r = analyze(spec({"E0"}, {block({{"E0", {"c", "p"}}})}, {dep("p", "c")}));
  REQUIRE(r.a.deadlocks.size() == 1);
  CHECK(r.a.deadlocks[0].message.rfind("certain deadlock: ", 0) == 0);
}

TEST_CASE("nested producers: backward owes nothing now, forward can close a cycle") {
  // E0 runs c, then loop B { p }: backward, so at k = 0 c owes nothing of the current
  // iteration (docs/semantics.md §2 counts started iterations of B only): no cycle.
  const auto backward =
      spec({"E0"}, {loop("A", 2, {block({{"E0", {"c"}}}), loop("B", 2, {block({{"E0", {"p"}}})})})}, {dep("p", "c")});
  CHECK(analyze(backward).a.deadlocks.empty());
  // Forward: loop B { p }, then E1: c c2. c waits for all of this iteration's p, p waits for
  // c2 of the same A iteration, and c2 issues after c on E1.
  const auto forward =
      spec({"E0", "E1"}, {loop("A", 2, {loop("B", 2, {block({{"E0", {"p"}}})}), block({{"E1", {"c", "c2"}}})})},
           {dep("p", "c"), dep("c2", "p")});
  const auto r = analyze(forward);
  REQUIRE(r.a.deadlocks.size() == 1);
  CHECK(names(r, 0) == std::vector<std::string>{"c", "c2", "p"});
  CHECK(r.a.deadlocks[0].message.find("loops A, B run") != std::string::npos);
}

TEST_CASE("exclusive branches never form a same-iteration cycle") {
  const auto p = spec({"E0"}, {loop("A", 3, {cond("C", {block({{"E0", {"a"}}})}, {block({{"E0", {"b"}}})})})},
                      {dep("a", "b"), dep("b", "a")});
  CHECK(analyze(p).a.deadlocks.empty());
}

TEST_CASE("a cycle inside one branch is reported with the branch") {
  const auto p = spec({"E0"}, {loop("A", 3, {cond("C", {block({{"E0", {"c", "p"}}})}, {})})}, {dep("p", "c")});
  const auto r = analyze(p);
  REQUIRE(r.a.deadlocks.size() == 1);
  CHECK(r.a.deadlocks[0].message.find("loop A runs and branch C.then is taken") != std::string::npos);
}

TEST_CASE("divergent control is left to the checker") {
  TripRule divergent = trips(ConstTrip{2});
  divergent.divergent = true;
  divergent.per_engine = {{"E0", ConstTrip{3}}};
  const auto p = spec({"E0"}, {loop("A", divergent, {block({{"E0", {"c", "p"}}})})}, {dep("p", "c")});
  CHECK(analyze(p).a.deadlocks.empty());
}
