// Program order (docs/footprints.md "Program order"): consecutive block lines form one region,
// and the order in which items were written across engines is kept and written back by both
// formats.
#include <doctest/doctest.h>

#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"

using namespace syncbisim;

TEST_CASE("program order: interleaved engine lines survive text and JSON") {
  const std::string text = "syncbisim spec/1\nengines DMA ACT\nDMA: load\nACT: evac\nDMA: store\n";
  auto r = formats::load_program_text(text, "order");
  REQUIRE(r.ok());
  const auto& p = r->program;
  REQUIRE(p.body.size() == 1);
  const auto& b = std::get<model::Block>(p.body[0].node);
  REQUIRE(b.streams.size() == 2);
  CHECK(b.streams[0].items.size() == 2);  // the semantics: one stream per engine
  const auto order = b.in_program_order();
  REQUIRE(order.size() == 3);
  CHECK(std::get<model::Instr>(b.streams[order[0].first].items[order[0].second]).id == "load");
  CHECK(std::get<model::Instr>(b.streams[order[1].first].items[order[1].second]).id == "evac");
  CHECK(std::get<model::Instr>(b.streams[order[2].first].items[order[2].second]).id == "store");
  CHECK(formats::write_text(p) == text);
  auto again = formats::load_program_text(formats::write_json(p), "order.json");
  REQUIRE(again.ok());
  CHECK(again->program == p);
  CHECK(formats::write_text(again->program) == text);
}

TEST_CASE("program order: a region written engine by engine keeps the plain form") {
  const std::string text = "syncbisim spec/1\nengines DMA ACT\nDMA: load store\nACT: evac\n";
  auto r = formats::load_program_text(text, "plain");
  REQUIRE(r.ok());
  CHECK(std::get<model::Block>(r->program.body[0].node).order.empty());
  CHECK(formats::write_text(r->program) == text);
}

TEST_CASE("program order: footprints and whole-iteration distances round-trip") {
  const std::string text = R"(syncbisim spec/1
engines DMA PE
buffer w sbuf [2, 128]
buffer a hbm [4, 4, 128]
loop n trip 1..3 {
  loop k trip 1..4 {
    DMA: load_w reads a[n, k, :] writes w[k mod 2, :]
    PE: mm reads w[k mod 2, :], a[n, ?, 0 : 64]
  }
}
dep load_w -> mm
dep mm -> load_w distance n=1, k=*
)";
  auto r = formats::load_program_text(text, "fp");
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? std::string() : r.error().to_string()));
  CHECK(formats::write_text(r->program) == text);
  auto j = formats::load_program_text(formats::write_json(r->program), "fp.json");
  REQUIRE(j.ok());
  CHECK(j->program == r->program);
  CHECK(r->program.deps[1].every == std::set<std::string>{"k"});
  CHECK(r->program.deps[1].distance.at("n") == 1);
}
