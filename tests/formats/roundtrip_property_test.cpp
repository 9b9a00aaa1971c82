// Round trips through both formats for random programs: JSON -> program -> text -> program ->
// JSON is the identity (docs/formats.md: what a printer writes reads back as the same program).
// A failure prints the shrunk program in both renderings.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "formats/detail/json_tree.h"
#include "formats/json_format.h"
#include "formats/text_format.h"
#include "generators/describe.h"
#include "generators/impl_gen.h"
#include "generators/spec_gen.h"
#include "model/index.h"
#include "support/rapidcheck_doctest.h"

namespace sb = syncbisim;
using sb::model::Program;

namespace {

void check_round_trips(const Program& p) {
  RC_LOG() << sb::generators::describe(p);
  const std::string json = sb::formats::write_json(p);
  RC_LOG() << "--- write_json\n" << json << "\n";
  const auto from_json = sb::formats::read_json(json);
  if (!from_json) RC_FAIL("read_json(write_json(p)) failed: " + from_json.error().to_string());
  RC_ASSERT(*from_json == p);
  // The writer's program array, written directly, is the tree's dump (formats/detail/json_tree.h).
  const auto program = nlohmann::ordered_json::parse(sb::formats::write_json(p, 0))["program"];
  RC_ASSERT(program.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) ==
            sb::formats::detail::program_by_tree(p));

  const std::string text = sb::formats::write_text(p);
  RC_LOG() << "--- write_text\n" << text << "\n";
  const auto from_text = sb::formats::read_text(text);
  if (!from_text) RC_FAIL("read_text(write_text(p)) failed: " + from_text.error().to_string());
  if (!(*from_text == p)) RC_LOG() << "--- read back from text\n" << sb::generators::describe(*from_text);
  RC_ASSERT(*from_text == p);
  RC_ASSERT(sb::formats::write_json(*from_text) == json);
}

// Distances naming @top are left out here: the text format cannot read them back yet (see the
// "known bug" case below); everything else is covered.
sb::generators::SpecGenOptions round_trip_options() { return sb::generators::SpecGenOptions{}; }

}  // namespace

TEST_CASE("roundtrip: spec programs survive JSON and text round trips") {
  sb::test::rc_check(
      "spec round trip", [] { check_round_trips(*sb::generators::gen_spec(round_trip_options())); }, 1000);
}

// Found by the property above: "distance @top=1" must read back.
TEST_CASE("roundtrip: a distance at @top survives the text format") {
  Program p;
  p.engines = {"E0"};
  p.body.push_back(sb::model::Stmt{sb::model::Block{{sb::model::Stream{"E0", {sb::model::Instr{"I0"}}}}, {}}});
  p.deps.push_back(sb::model::Dependency{"I0", "I0", {{"@top", 1}}, {}});
  const auto back = sb::formats::read_text(sb::formats::write_text(p));
  REQUIRE(back.ok());
  CHECK(*back == p);
}

// Names the formats could not carry are not names: a keyword of the text format ("barrier"
// read back as a barrier) and a dash (read as subtraction by the expression grammar).
TEST_CASE("roundtrip: names the formats cannot carry are rejected by the symbol table") {
  Program p;
  p.kind = sb::model::ProgramKind::Impl;
  p.engines = {"E0"};
  p.body.push_back(sb::model::Stmt{sb::model::Block{{sb::model::Stream{"E0", {sb::model::Instr{"barrier"}}}}, {}}});
  auto r = sb::model::ProgramIndex::build(p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rule == "bad-name");
  p.body.clear();
  p.body.push_back(sb::model::Stmt{
      sb::model::Block{{sb::model::Stream{"E0", {sb::model::RegOp{"w", sb::model::Expr::reg("r-1"), {}}}}}, {}}});
  r = sb::model::ProgramIndex::build(p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rule == "bad-name");
}

TEST_CASE("roundtrip: allocatable acyclic spec programs survive JSON and text round trips") {
  auto o = round_trip_options();
  o.deps.allocatable_only = true;
  o.deps.acyclic = true;
  o.divergent = false;
  sb::test::rc_check(
      "allocatable spec round trip", [o] { check_round_trips(*sb::generators::gen_spec(o)); }, 300);
}

TEST_CASE("roundtrip: impl programs survive JSON and text round trips") {
  sb::test::rc_check(
      "impl round trip", [] { check_round_trips(*sb::generators::gen_impl_shape()); }, 1000);
}
