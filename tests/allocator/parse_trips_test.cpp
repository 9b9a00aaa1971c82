// allocator::parse_trips, the reader of `stats --trips` and `simulate --trips` (issue 18 class 6):
// trips are 32-bit as everywhere else (docs/formats.md "JSON"), a loop is given once, and a
// bad item is quoted in one printable line.
#include <doctest/doctest.h>

#include <string>

#include "allocator/stats.h"
#include "model/quote.h"

using namespace syncbisim;

TEST_CASE("parse_trips: 32-bit counts, then/else, each name once") {
  auto r = allocator::parse_trips("A=1000000000,B=4294967295,C=else,D=then,E=0");
  INFO((r ? std::string("ok") : r.error().to_string()));
  REQUIRE(r.ok());
  CHECK(r->at("A") == 1000000000u);
  CHECK(r->at("B") == 4294967295u);
  CHECK(r->at("C") == 1u);
  CHECK(r->at("D") == 0u);
  CHECK(r->at("E") == 0u);
  CHECK(allocator::parse_trips("tile-k=0004294967295")->at("tile-k") == 4294967295u);
  CHECK(allocator::parse_trips("")->empty());
}

TEST_CASE("parse_trips: refuses past 32 bits, duplicates and junk, with a clean message") {
  for (const char* bad : {"A=4294967296", "A=99999999999999999999999", "A=1,A=2", "A=then,A=1", "A=-1", "A=1x", "A",
                          "=3", "A=", "A=1,,B=2", "A=\x01\n"}) {
    INFO(bad);
    const auto r = allocator::parse_trips(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().rule == "bad-trips");
    CHECK(model::printable(r.error().to_string()) == r.error().to_string());
  }
  CHECK(allocator::parse_trips("A=1,A=2").error().message.find("'A' is given twice") != std::string::npos);
}
