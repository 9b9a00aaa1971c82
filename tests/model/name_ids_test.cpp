// model/detail/name_ids.h, the table behind ProgramIndex's lookups: an id per name, the names
// kept outside it; a duplicate is refused, every name is found again after the table grows, and
// a name that was never inserted is not found (also one of equal hash bucket).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/detail/name_ids.h"
#include "model/index.h"
#include "model/program.h"

using syncbisim::model::detail::NameIds;

TEST_CASE("name ids: inserted names are found by id through growth, duplicates refused") {
  std::vector<std::string> names;
  NameIds ids;
  const auto name_of = [&](std::uint32_t id) -> const std::string& { return names[id]; };
  CHECK_FALSE(ids.find("x", name_of).has_value());  // empty table
  for (std::uint32_t i = 0; i < 5000; ++i) {
    const std::string n = "I" + std::to_string(i * 7);
    REQUIRE(ids.insert(n, static_cast<std::uint32_t>(names.size()), name_of));
    names.push_back(n);
  }
  CHECK(ids.size() == 5000);
  for (std::uint32_t i = 0; i < 5000; ++i) {
    const auto id = ids.find("I" + std::to_string(i * 7), name_of);
    REQUIRE(id.has_value());
    CHECK(*id == i);
  }
  CHECK_FALSE(ids.insert("I14", 99999, name_of));  // there already: nothing added
  CHECK(ids.size() == 5000);
  CHECK(*ids.find("I14", name_of) == 2);
  CHECK_FALSE(ids.find("I15", name_of).has_value());
  CHECK_FALSE(ids.find("", name_of).has_value());
}

TEST_CASE("name ids: ProgramIndex finds every name of a long block and refuses a duplicate") {
  using namespace syncbisim::model;
  Program p;
  p.kind = ProgramKind::Spec;
  p.engines = {"E0", "E1"};
  Block b;
  for (int e = 0; e < 2; ++e) {
    Stream s;
    s.engine = p.engines[e];
    for (int j = 0; j < 3000; ++j) s.items.push_back(Instr{"I" + std::to_string(e) + "_" + std::to_string(j), {}, {}, {}, {}});
    b.streams.push_back(s);
  }
  p.body.push_back(Stmt{b});
  auto ix = ProgramIndex::build(p);
  REQUIRE(ix);
  CHECK(ix->instrs.size() == 6000);
  CHECK(*ix->instr("I1_2999") == 5999);
  CHECK(*ix->instr("I0_0") == 0);
  CHECK_FALSE(ix->instr("I2_0").has_value());
  CHECK(*ix->engine("E1") == 1);
  CHECK(*ix->loop("@top") == kTop);
  std::get<Block>(p.body[0].node).streams[1].items.push_back(Instr{"I0_5", {}, {}, {}, {}});
  const auto dup = ProgramIndex::build(p);
  REQUIRE_FALSE(dup);
  CHECK(dup.error().rule == "duplicate-instr");
}
