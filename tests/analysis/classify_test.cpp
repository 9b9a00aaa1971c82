// Classification of dependencies (paper §5.2, docs/semantics.md §6): one small program per case.
#include <doctest/doctest.h>

#include "tests/analysis/builders.h"

using namespace syncbisim::test;
using syncbisim::analysis::DepClass;

namespace {

void expect(const Analyzed& r, std::size_t i, DepClass cls, const std::string& S, const std::string& P, std::uint32_t k,
            bool forward) {
  const auto& d = r[i];
  INFO("dependency #", i, ": ", d.reason);
  CHECK(to_string(d.cls) == std::string(to_string(cls)));
  CHECK(r.loop(d.S) == S);
  CHECK(r.loop(d.P) == P);
  CHECK(d.offset == k);
  CHECK(d.forward == forward);
  CHECK(d.allocatable() == (cls != DepClass::NotAllocatable));
  CHECK(d.reason.empty() == d.allocatable());
}

}  // namespace

TEST_CASE("producer in S, offsets 0, 1 and 2") {
  for (std::uint32_t k : {0u, 1u, 2u}) {
    const auto p =
        spec({"E0", "E1"}, {loop("A", 4, {block({{"E0", {"p"}}, {"E1", {"c"}}})})}, {dep("p", "c", {{"A", k}})});
    const auto r = analyze(p);
    expect(r, 0, DepClass::ProducerInS, "A", "A", k, true);  // same block, different engines: forward
  }
}

TEST_CASE("producer in S, backward on one engine, any offset") {
  const auto p = spec({"E0"}, {loop("A", 4, {block({{"E0", {"c", "p"}}})})},
                      {dep("p", "c", {{"A", 1}}), dep("p", "c", {{"A", 3}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::ProducerInS, "A", "A", 1, false);
  expect(r, 1, DepClass::ProducerInS, "A", "A", 3, false);
}

TEST_CASE("producer in S, consumer nested below S") {
  const auto p = spec({"E0", "E1"}, {loop("A", 2, {block({{"E0", {"p"}}}), loop("B", 3, {block({{"E1", {"c"}}})})})},
                      {dep("p", "c")});
  expect(analyze(p), 0, DepClass::ProducerInS, "A", "A", 0, true);
}

TEST_CASE("nested forward, offset 0 (paper Figure 6 left)") {
  const auto p =
      spec({"E0", "E1"}, {loop("A", 2, {loop("B", range(1, 3), {block({{"E0", {"p"}}})}), block({{"E1", {"c"}}})})},
           {dep("p", "c")});
  const auto r = analyze(p);
  expect(r, 0, DepClass::NestedForward, "A", "B", 0, true);
  CHECK(r.a.deadlocks.empty());
  CHECK(r.a.warnings.empty());
}

TEST_CASE("nested backward, offset 1 (paper Figure 6 right)") {
  const auto p = spec({"E0", "E1"}, {loop("A", 2, {block({{"E1", {"c"}}}), loop("B", 3, {block({{"E0", {"p"}}})})})},
                      {dep("p", "c", {{"A", 1}})});
  expect(analyze(p), 0, DepClass::NestedBackward, "A", "B", 1, false);
}

TEST_CASE("both nested in sibling loops: positions are the loops' statements in S") {
  const auto p = spec(
      {"E0", "E1"}, {loop("A", 2, {loop("B1", 2, {block({{"E0", {"p"}}})}), loop("B2", 2, {block({{"E1", {"c"}}})})})},
      {dep("p", "c"), dep("c", "p", {{"A", 1}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::NestedForward, "A", "B1", 0, true);
  expect(r, 1, DepClass::NestedBackward, "A", "B2", 1, false);
}

TEST_CASE("not allocatable: multi-level distance") {
  const auto p = spec({"E0", "E1"}, {loop("A", 2, {loop("B", 3, {block({{"E0", {"p"}}, {"E1", {"c"}}})})})},
                      {dep("p", "c", {{"A", 1}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::NotAllocatable, "B", "B", 0, true);
  CHECK(r[0].reason.rfind("multi-level distance", 0) == 0);
  CHECK(r[0].reason.find("loop A") != std::string::npos);
  CHECK(r[0].distance == std::vector<std::uint32_t>{0, 1, 0});
}

TEST_CASE("not allocatable: nested forward with offset 1") {
  const auto p = spec({"E0", "E1"}, {loop("A", 3, {loop("B", 3, {block({{"E0", {"p"}}})}), block({{"E1", {"c"}}})})},
                      {dep("p", "c", {{"A", 1}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::NotAllocatable, "A", "B", 1, true);
  CHECK(r[0].reason.rfind("nested forward producer with offset 1: r_B cannot recover", 0) == 0);
}

TEST_CASE("not allocatable: nested backward with offset 0 and offset 2") {
  const auto p = spec({"E0", "E1"}, {loop("A", 3, {block({{"E1", {"c"}}}), loop("B", 3, {block({{"E0", {"p"}}})})})},
                      {dep("p", "c"), dep("p", "c", {{"A", 2}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::NotAllocatable, "A", "B", 0, false);
  CHECK(r[0].reason.rfind("nested backward producer with offset 0", 0) == 0);
  expect(r, 1, DepClass::NotAllocatable, "A", "B", 2, false);
  CHECK(r[1].reason.rfind("nested backward producer with offset 2", 0) == 0);
  // docs/semantics.md §2 counts only started iterations of B: offset 0 binds like offset 1, so it is
  // a warning, not a certain deadlock (docs/analysis.md).
  CHECK(r.a.deadlocks.empty());
  REQUIRE(r.a.warnings.size() == 1);
  CHECK(r.a.warnings[0].message.find("binds like offset 1") != std::string::npos);
}

TEST_CASE("paper Figure 1: offset 2 carried by the loop, different engines") {
  const auto p = spec({"E0", "E1", "E2"},
                      {block({{"E0", {"I0"}}, {"E1", {"I1"}}}), loop("A", 3, {block({{"E2", {"I2"}}, {"E1", {"I3"}}})}),
                       block({{"E2", {"I4"}}, {"E0", {"I5"}}})},
                      {dep("I3", "I2", {{"A", 2}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::ProducerInS, "A", "A", 2, true);
  CHECK(r[0].common.size() == 2);
  CHECK(r[0].distance == std::vector<std::uint32_t>{0, 2});
  CHECK(r.ix.engines[r[0].producer_engine] == "E1");
  CHECK(r.ix.engines[r[0].consumer_engine] == "E2");
  CHECK(r.a.deadlocks.empty());
  CHECK(r.a.warnings.empty());
}

TEST_CASE("paper Figure 5: inner loop with varying trips, offset 2 on B") {
  const auto p = spec({"E0", "E1"},
                      {loop("A", 2, {loop("B", seq({3, 4}), {block({{"E0", {"Producer"}}, {"E1", {"Consumer"}}})})})},
                      {dep("Producer", "Consumer", {{"B", 2}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::ProducerInS, "B", "B", 2, true);
  CHECK(r[0].distance == std::vector<std::uint32_t>{0, 0, 2});
  CHECK(r.a.warnings.empty());  // B runs up to 4 > 2: the dependency binds
}

TEST_CASE("exclusive branches: allocatable at offsets 0 and 1 whatever the order") {
  const auto p = spec(
      {"E0", "E1"}, {loop("A", 4, {cond("C", {block({{"E0", {"t"}}})}, {block({{"E1", {"e"}}})})})},
      {dep("t", "e"), dep("t", "e", {{"A", 1}}), dep("e", "t"), dep("e", "t", {{"A", 1}}), dep("e", "t", {{"A", 2}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::NestedForward, "A", "C.then", 0, true);
  expect(r, 1, DepClass::NestedBackward, "A", "C.then", 1, true);
  expect(r, 2, DepClass::NestedForward, "A", "C.else", 0, false);
  expect(r, 3, DepClass::NestedBackward, "A", "C.else", 1, false);
  expect(r, 4, DepClass::NotAllocatable, "A", "C.else", 2, false);
  for (std::size_t i = 0; i < 4; ++i) CHECK(r[i].exclusive_branches);
  CHECK(r.a.deadlocks.empty());
  CHECK(r.a.warnings.empty());
}

TEST_CASE("consecutive blocks are one statement: order on one engine decides") {
  const auto p = spec({"E0", "E1"}, {loop("A", 3, {block({{"E0", {"c"}}}), block({{"E1", {"q"}}, {"E0", {"p"}}})})},
                      {dep("p", "c", {{"A", 1}}), dep("c", "p"), dep("q", "c", {{"A", 1}})});
  const auto r = analyze(p);
  expect(r, 0, DepClass::ProducerInS, "A", "A", 1, false);
  expect(r, 1, DepClass::ProducerInS, "A", "A", 0, true);
  expect(r, 2, DepClass::ProducerInS, "A", "A", 1, true);  // different engines in one region
}

TEST_CASE("a loop statement between orders the block statements") {
  const auto p =
      spec({"E0", "E1"},
           {loop("A", 3, {block({{"E1", {"c"}}}), loop("B", 2, {block({{"E0", {"x"}}})}), block({{"E0", {"p"}}})})},
           {dep("p", "c", {{"A", 1}})});
  expect(analyze(p), 0, DepClass::ProducerInS, "A", "A", 1, false);
}

TEST_CASE("dependencies at top level") {
  const auto p = spec({"E0", "E1"}, {block({{"E0", {"p"}}, {"E1", {"c"}}})}, {dep("p", "c")});
  const auto r = analyze(p);
  expect(r, 0, DepClass::ProducerInS, "@top", "@top", 0, true);
  CHECK(r[0].common == std::vector<syncbisim::model::LoopId>{syncbisim::model::kTop});
}

TEST_CASE("warnings: dependencies that can never bind") {
  const auto p =
      spec({"E0", "E1"},
           {block({{"E0", {"x"}}, {"E1", {"y"}}}), loop("A", range(1, 3), {block({{"E0", {"p"}}, {"E1", {"c"}}})})},
           {dep("x", "y", {{"@top", 1}}), dep("p", "c", {{"A", 3}}), dep("p", "c", {{"A", 2}})});
  const auto r = analyze(p);
  REQUIRE(r.a.warnings.size() == 2);
  CHECK(r.a.warnings[0].message.find("@top") != std::string::npos);
  CHECK(r.a.warnings[0].message.find("never binds") != std::string::npos);
  CHECK(r.a.warnings[1].message.find("offset 3 at loop A") != std::string::npos);
  CHECK(r.a.warnings[1].place == "/deps/1");
  // @top with offset 1 is also a multi-level-free, allocatable P = S shape.
  expect(r, 0, DepClass::ProducerInS, "@top", "@top", 1, true);
}

TEST_CASE("classification does not depend on how regions are split into blocks") {
  const auto raw = spec(
      {"E0", "E1"},
      {loop("A", 3,
            {block({{"E0", {"c"}}}), block({{"E1", {"q"}}}), block({{"E0", {"p"}}}),
             loop("B", 2, {block({{"E1", {"x"}}}), block({{"E0", {"y"}}})}), block({{"E1", {"z"}}})})},
      {dep("p", "c", {{"A", 1}}), dep("c", "p"), dep("x", "z"), dep("z", "y", {{"A", 1}}), dep("y", "x", {{"B", 1}})});
  auto merged = raw;
  normalize(merged);
  REQUIRE(merged.body.size() == 1);
  const auto a = analyze(raw), b = analyze(merged);
  REQUIRE(a.a.deps.size() == b.a.deps.size());
  for (std::size_t i = 0; i < a.a.deps.size(); ++i) {
    CHECK(a[i].cls == b[i].cls);
    CHECK(a[i].forward == b[i].forward);
    CHECK(a[i].S == b[i].S);
    CHECK(a[i].P == b[i].P);
  }
  expect(a, 0, DepClass::ProducerInS, "A", "A", 1, false);
  expect(a, 2, DepClass::NestedForward, "A", "B", 0, true);
  expect(a, 3, DepClass::ProducerInS, "A", "A", 1, false);  // z after loop B: backward
  expect(a, 4, DepClass::ProducerInS, "B", "B", 1, true);
}
