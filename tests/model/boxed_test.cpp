// model::Boxed behaves as the value it holds: an empty box reads as a default value, copies are
// deep, equality compares values, and an Instr with boxed fields compares as before.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>

#include "model/boxed.h"
#include "model/program.h"

using syncbisim::model::Boxed;

TEST_CASE("an empty box reads as a default value and reading does not fill it") {
  const Boxed<std::map<std::string, std::string>> b;
  CHECK(b->empty());
  CHECK((*b).size() == 0);
  CHECK(b == Boxed<std::map<std::string, std::string>>(std::map<std::string, std::string>{}));
}

TEST_CASE("a box copies deeply and compares by value") {
  Boxed<std::map<std::string, std::string>> a;
  a.edit()["op"] = "\"dma\"";
  auto b = a;  // a copy, not a second name for the same map
  CHECK(a == b);
  b.edit()["op"] = "\"matmul\"";
  CHECK(a->at("op") == "\"dma\"");
  CHECK(b->at("op") == "\"matmul\"");
  CHECK_FALSE(a == b);
  a = b;
  CHECK(a == b);
  auto moved = std::move(a);
  CHECK(moved == b);
}

TEST_CASE("assigning an empty value empties the box, and a filled box equals the same value unboxed") {
  Boxed<std::map<std::string, std::string>> a(std::map<std::string, std::string>{{"k", "1"}});
  CHECK(a == std::map<std::string, std::string>{{"k", "1"}});
  a = std::map<std::string, std::string>{};
  CHECK(a->empty());
  CHECK(a == Boxed<std::map<std::string, std::string>>());
}

TEST_CASE("instructions with footprints or extras compare by those values") {
  using namespace syncbisim::model;
  Instr x;
  x.id = "I0";
  Instr y = x;
  CHECK(x == y);
  Access read;
  read.buffer = "a";
  y.footprint.edit().reads.push_back(read);
  CHECK_FALSE(x == y);
  x.footprint = *y.footprint;
  CHECK(x == y);
  x.extra.edit()["op"] = "1";
  CHECK_FALSE(x == y);
  // An Item holds the boxes, not the footprint and the extras inline.
  CHECK(sizeof(Instr) < sizeof(Footprint) + sizeof(std::map<std::string, std::string>) + sizeof(std::string) * 3);
}
