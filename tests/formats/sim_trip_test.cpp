// A loop's sim_trip (docs/formats.md): read and written by both formats, ignored by the rest.
#include <doctest/doctest.h>

#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"

using namespace syncbisim;

TEST_CASE("formats: sim_trip round-trips in text and JSON and stays optional") {
  const char* text = R"(syncbisim spec/1
engines E0
loop A trip 3 sim_trip 10000 {
  loop B trip 1..2 {
    E0: I0
  }
}
)";
  auto p = formats::load_program_text(text, "t");
  REQUIRE_MESSAGE(p.ok(), p.error().to_string());
  const auto& a = std::get<model::Loop>(p->program.body[0].node);
  REQUIRE(a.sim_trip.has_value());
  CHECK(*a.sim_trip == 10000);
  CHECK_FALSE(std::get<model::Loop>(a.body[0].node).sim_trip.has_value());
  CHECK(formats::write_text(p->program) == text);
  const auto json = formats::write_json(p->program);
  CHECK(json.find("\"sim_trip\": 10000") != std::string::npos);
  auto q = formats::load_program_text(json, "t.json");
  REQUIRE(q.ok());
  CHECK(q->program == p->program);
  auto bad = formats::load_program_text(
      R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [{"loop": "A", "trip": 1, "sim_trip": -1, "body": []}]})",
      "b.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rule == "bad-number");
}
