// Structural correspondence of an impl to its spec (docs/semantics.md §5, docs/formats.md "Bad input").
#include <doctest/doctest.h>

#include "tests/analysis/builders.h"

using namespace syncbisim::test;
namespace test = syncbisim::test;  // test::sync(), not unistd.h's ::sync()

namespace {

// Paper Figure 1.
Program figure1() {
  return spec({"E0", "E1", "E2"},
              {block({{"E0", {"I0"}}, {"E1", {"I1"}}}), loop("A", 3, {block({{"E2", {"I2"}}, {"E1", {"I3"}}})}),
               block({{"E2", {"I4"}}, {"E0", {"I5"}}})},
              {dep("I3", "I2", {{"A", 2}})});
}

// An impl of Figure 1 with the allocator's additions: register operations, waits, signals and
// a barrier, consecutive blocks split differently, and the trip left out.
Program figure1_impl() {
  return impl(
      {"E0", "E1", "E2"},
      {block({{"E0", {"I0"}}}), block({{"E1", {"I1", set("rhA", 0)}}, {"E2", {set("rhA", 0)}}}),
       loop("A", std::nullopt, {block({{"E2", {set("rA", 1), waiting("I2", "s0", 2)}}, {"E1", {set("rA", 1), "I3"}}})}),
       block({{"E2", {"I4", test::sync()}}, {"E0", {test::sync(), "I5"}}})},
      {"s0"});
}

void expect_error(const Status& s, const std::string& rule, const std::string& message) {
  REQUIRE_FALSE(s.ok());
  INFO(s.error().to_string());
  CHECK(s.error().rule == rule);
  CHECK(s.error().message == message);
}

}  // namespace

TEST_CASE("equal programs correspond") {
  CHECK(correspond(figure1(), figure1()).ok());
  const auto s = correspond(figure1(), figure1_impl());
  INFO((s.ok() ? "" : s.error().to_string()));
  CHECK(s.ok());
}

TEST_CASE("consecutive blocks merged or written as one block are equal") {
  const auto a = spec({"E0", "E1"}, {block({{"E0", {"x"}}}), block({{"E1", {"y"}}, {"E0", {"z"}}})});
  const auto b = impl({"E0", "E1"}, {block({{"E0", {"x", "z"}}, {"E1", {"y"}}})});
  CHECK(correspond(a, b).ok());
}

TEST_CASE("a block of register operations only is not a region") {
  const auto a = spec({"E0"}, {loop("A", 2, {block({{"E0", {"x"}}})}), loop("B", 2, {block({{"E0", {"y"}}})})});
  const auto b = impl({"E0"}, {loop("A", 2, {block({{"E0", {"x"}}})}), block({{"E0", {set("r", 0), test::sync()}}}),
                               loop("B", 2, {block({{"E0", {"y"}}})})});
  CHECK(correspond(a, b).ok());
}

TEST_CASE("missing instruction") {
  auto b = figure1_impl();
  auto& body = std::get<Loop>(b.body[2].node).body;
  body[0] = block({{"E2", {"I2"}}});
  expect_error(correspond(figure1(), b), "impl-instrs",
               "in loop A, engine E1: the spec has I3 where the impl has nothing more (I3 is not an instruction "
               "of the impl)");
}

TEST_CASE("swapped order on one engine, with the impl's place") {
  const auto a = spec({"E0", "E1"}, {loop("A", 2, {block({{"E0", {"I0"}}, {"E1", {"I2", "I3"}}})})});
  auto b = impl({"E0", "E1"}, {loop("A", 2, {block({{"E0", {"I0"}}, {"E1", {"I3", "I2"}}})})});
  auto& stream = std::get<Block>(std::get<Loop>(b.body[0].node).body[0].node).streams[1];
  std::get<Instr>(stream.items[0]).loc.where = "/program/0/body/0/block/E1/0";
  const auto s = correspond(a, b);
  expect_error(s, "impl-instrs",
               "in loop A, engine E1: the spec has I2 where the impl has I3 (the spec has I3 later in this "
               "stream: the order differs)");
  CHECK(s.error().place == "/program/0/body/0/block/E1/0");
}

TEST_CASE("an instruction moved to another engine") {
  const auto a = spec({"E0", "E1"}, {block({{"E0", {"x", "y"}}})});
  const auto b = impl({"E0", "E1"}, {block({{"E0", {"x"}}, {"E1", {"y"}}})});
  expect_error(correspond(a, b), "impl-instrs",
               "in the top level, engine E0: the spec has y after x where the impl has nothing more (the impl "
               "has y at the top level, engine E1)");
}

TEST_CASE("extra loop") {
  const auto a = spec({"E0"}, {loop("A", 2, {block({{"E0", {"x"}}})})});
  auto b = impl({"E0"}, {loop("A", 2, {block({{"E0", {"x"}}})}), loop("X", 1, {})});
  std::get<Loop>(b.body[1].node).loc.where = "3:1";
  const auto s = correspond(a, b);
  expect_error(s, "impl-tree", "in the top level: the impl has an extra loop X the spec does not have");
  CHECK(s.error().place == "3:1");
}

TEST_CASE("loop renamed") {
  const auto a = spec({"E0"}, {loop("A", 2, {loop("B", 2, {block({{"E0", {"x"}}})})})});
  const auto b = impl({"E0"}, {loop("A", 2, {loop("C", 2, {block({{"E0", {"x"}}})})})});
  expect_error(correspond(a, b), "impl-tree", "the spec has loop B where the impl has loop C");
}

TEST_CASE("loop where the spec has instructions") {
  const auto a = spec({"E0"}, {block({{"E0", {"x"}}}), loop("A", 2, {})});
  const auto b = impl({"E0"}, {loop("A", 2, {}), block({{"E0", {"x"}}})});
  expect_error(correspond(a, b), "impl-instrs",
               "in the top level: the spec has instruction x (engine E0) where the impl has loop A");
}

TEST_CASE("different trip, and the same trip or none") {
  const auto a = spec({"E0"}, {loop("A", 2, {block({{"E0", {"x"}}})})});
  expect_error(correspond(a, impl({"E0"}, {loop("A", 3, {block({{"E0", {"x"}}})})})), "impl-trip",
               "loop A: the impl's trip rule differs from the spec's");
  CHECK(correspond(a, impl({"E0"}, {loop("A", 2, {block({{"E0", {"x"}}})})})).ok());
  CHECK(correspond(a, impl({"E0"}, {loop("A", std::nullopt, {block({{"E0", {"x"}}})})})).ok());
}

TEST_CASE("conds: ids, branch bodies and branch rules") {
  const auto a = spec({"E0"}, {cond("C", {block({{"E0", {"x"}}})}, {block({{"E0", {"y"}}})})});
  CHECK(correspond(a, impl({"E0"}, {cond("C", {block({{"E0", {"x"}}})}, {block({{"E0", {"y"}}})})})).ok());
  expect_error(correspond(a, impl({"E0"}, {cond("C", {block({{"E0", {"x"}}})}, {block({{"E0", {"z"}}})})})),
               "impl-instrs",
               "in branch C.else, engine E0: the spec has y where the impl has z (z is not an instruction of "
               "the spec)");
  expect_error(correspond(a, impl({"E0"}, {cond("D", {block({{"E0", {"x"}}})}, {block({{"E0", {"y"}}})})})),
               "impl-tree", "the spec has cond C where the impl has cond D");
  auto forced = impl({"E0"}, {cond("C", {block({{"E0", {"x"}}})}, {block({{"E0", {"y"}}})})});
  std::get<Cond>(forced.body[0].node).taken = trips(ConstTrip{0});
  CHECK(correspond(a, forced).error().rule == "impl-trip");
}

TEST_CASE("different engines") {
  const auto a = spec({"E0", "E1"}, {block({{"E0", {"x"}}})});
  expect_error(correspond(a, impl({"E1", "E0"}, {block({{"E0", {"x"}}})})), "impl-engines",
               "the spec's engines are [E0 E1] but the impl's are [E1 E0] (same names, same order)");
  CHECK(correspond(a, impl({"E0"}, {block({{"E0", {"x"}}})})).error().rule == "impl-engines");
}
