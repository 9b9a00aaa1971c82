// generators::describe, the text a failing property logs: each statement indented two spaces a
// level inside loops and both branches of a cond, blocks ended by "--".
#include <doctest/doctest.h>

#include "generators/describe.h"

namespace sb = syncbisim;
using namespace sb::model;

namespace {

Stmt block(const std::string& engine, const std::string& instr) {
  Block b;
  b.streams.push_back(Stream{engine, {Instr{instr, {}, {}, {}, {}, {}}}});
  return Stmt{std::move(b)};
}

}  // namespace

TEST_CASE("describe nests loops and a cond's two branches") {
  Program p;
  p.kind = ProgramKind::Spec;
  p.engines = {"pe", "act"};
  Loop inner{"B", TripRule{ConstTrip{2}, {}, false}, {block("act", "u")}, {}, {}};
  Loop outer{"A", TripRule{ConstTrip{3}, {}, false}, {block("pe", "t"), Stmt{std::move(inner)}}, {}, {}};
  Cond cond{"K", std::nullopt, {block("pe", "v")}, {}, {}};
  p.body = {Stmt{std::move(outer)}, Stmt{std::move(cond)}, block("act", "w")};
  const std::string text = sb::generators::describe(p);
  CHECK(text.find("loop A trip 3 {\n"
                  "  pe: t\n"
                  "  --\n"
                  "  loop B trip 2 {\n"
                  "    act: u\n"
                  "    --\n"
                  "  }\n"
                  "}\n"
                  "cond K taken - {\n"
                  "  pe: v\n"
                  "  --\n"
                  "} else {\n"
                  "}\n"
                  "act: w\n"
                  "--\n") != std::string::npos);
}
