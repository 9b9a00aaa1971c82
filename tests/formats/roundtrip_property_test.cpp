// Round trips through both formats for random programs: JSON -> program -> text -> program ->
// JSON is the identity (formats.md: "a printer whose output parses back to the same program").
// A failure prints the shrunk program in both renderings.
#include <doctest/doctest.h>

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
sb::generators::SpecGenOptions round_trip_options() {
  sb::generators::SpecGenOptions o;
  o.distance_at_top = false;
  return o;
}

}  // namespace

TEST_CASE("roundtrip: spec programs survive JSON and text round trips") {
  sb::test::rc_check("spec round trip", [] { check_round_trips(*sb::generators::gen_spec(round_trip_options())); },
                     1000);
}

// Known bug in formats/ (found by the property above): write_text prints "distance @top=1",
// which read_text rejects ("expected a loop id, found '@'"). Remove may_fail once fixed.
TEST_CASE("roundtrip: a distance at @top survives the text format" * doctest::may_fail()) {
  Program p;
  p.engines = {"E0"};
  p.body.push_back(sb::model::Stmt{sb::model::Block{{sb::model::Stream{"E0", {sb::model::Instr{"I0"}}}}, {}}});
  p.deps.push_back(sb::model::Dependency{"I0", "I0", {{"@top", 1}}, {}});
  const auto back = sb::formats::read_text(sb::formats::write_text(p));
  REQUIRE(back.ok());
  CHECK(*back == p);
}

// Known bug in formats/ (found by hand while widening the names the generators use): an impl
// instruction whose id is "barrier" is written bare by write_text and read back as a barrier.
// Remove may_fail once fixed.
TEST_CASE("roundtrip: an instruction named like a keyword survives the text format" * doctest::may_fail()) {
  Program p;
  p.kind = sb::model::ProgramKind::Impl;
  p.engines = {"E0"};
  p.body.push_back(sb::model::Stmt{sb::model::Block{{sb::model::Stream{"E0", {sb::model::Instr{"barrier"}}}}, {}}});
  const auto back = sb::formats::read_text(sb::formats::write_text(p));
  REQUIRE(back.ok());
  CHECK(*back == p);
}

// Known gap between model/ and formats/: ProgramIndex accepts "r-1" as a register name
// (valid_name allows '-'), but the expression grammar reads it as r - 1, so neither format
// can carry it. Either names or the grammar must change; remove may_fail then.
TEST_CASE("roundtrip: a register name with a dash survives both formats" * doctest::may_fail()) {
  Program p;
  p.kind = sb::model::ProgramKind::Impl;
  p.engines = {"E0"};
  p.body.push_back(sb::model::Stmt{
      sb::model::Block{{sb::model::Stream{"E0", {sb::model::RegOp{"w", sb::model::Expr::reg("r-1"), {}}}}}, {}}});
  REQUIRE(sb::model::ProgramIndex::build(p).ok());
  const auto from_json = sb::formats::read_json(sb::formats::write_json(p));
  REQUIRE(from_json.ok());
  CHECK(*from_json == p);
  const auto from_text = sb::formats::read_text(sb::formats::write_text(p));
  REQUIRE(from_text.ok());
  CHECK(*from_text == p);
}

TEST_CASE("roundtrip: allocatable acyclic spec programs survive JSON and text round trips") {
  auto o = round_trip_options();
  o.allocatable_only = true;
  o.acyclic = true;
  o.divergent = false;
  sb::test::rc_check("allocatable spec round trip", [o] { check_round_trips(*sb::generators::gen_spec(o)); }, 300);
}

TEST_CASE("roundtrip: impl programs survive JSON and text round trips") {
  sb::test::rc_check("impl round trip", [] { check_round_trips(*sb::generators::gen_impl_shape()); }, 1000);
}
