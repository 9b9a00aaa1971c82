// Warnings about registers read where they are never written (docs/formats.md "Warnings").
#include <doctest/doctest.h>

#include "analysis/register_use.h"
#include "formats/text_format.h"

using namespace syncbisim;

TEST_CASE("a register read on an engine that never writes it is reported once, with its place") {
  auto p = formats::read_text(R"(
syncbisim impl/1
engines E0 E1
semaphores s
E0: [r := r + 1] P {s += 1}
E1: [w := r * 2] {s >= w} C {s >= r} D
)");
  REQUIRE(p.ok());
  const auto ix = model::ProgramIndex::build(*p);
  REQUIRE(ix.ok());
  const auto ws = analysis::unwritten_registers(*p, *ix);
  REQUIRE(ws.size() == 1);  // r on E1; w is written on E1; r is written on E0
  CHECK(ws[0].message.find("'r'") != std::string::npos);
  CHECK(ws[0].message.find("E1") != std::string::npos);
  CHECK_FALSE(ws[0].place.empty());
}

TEST_CASE("registers written somewhere on their engine give no warning, whatever the order") {
  auto p = formats::read_text(R"(
syncbisim impl/1
engines E0
semaphores s
loop A trip 2 {
  E0: [w := rA] {s >= w} P {s += 1} [rA := rA + 1]
}
)");
  REQUIRE(p.ok());
  const auto ix = model::ProgramIndex::build(*p);
  REQUIRE(ix.ok());
  CHECK(analysis::unwritten_registers(*p, *ix).empty());
}
