// The cost table: lookups by operation and engine class, the instruction's own fields, the file
// format and its errors (docs/timing.md "Costs").
#include <doctest/doctest.h>

#include "timing/cost_table.h"

using namespace syncbisim;
using timing::instr_cost;

TEST_CASE("costs: the default table's engine classes and the most specific operation pattern") {
  const auto& t = timing::default_cost_table();
  CHECK(t.engine_class("PE") == "tensor");
  CHECK(t.engine_class("DMA3") == "dma");
  CHECK(t.engine_class("E0") == "generic");
  // a 512-column matmul holds the Tensor Engine 512 cycles, retires 256 later
  auto c = instr_cost(t, "PE", {{"op", "\"matmul\""}, {"size", "512"}});
  CHECK(c.interval == 512);
  CHECK(c.latency == 768);
  // at least 64 cycles however narrow (the matmul's initiation interval)
  CHECK(instr_cost(t, "PE", {{"op", "\"matmul\""}, {"size", "8"}}).interval == 64);
  // two input tiles on the Vector Engine: 2N cycles at 0.96 GHz, 5 model cycles per element
  CHECK(instr_cost(t, "DVE", {{"op", "\"tensor_tensor_add\""}, {"size", "100"}}).interval == 500);
  CHECK(instr_cost(t, "DVE", {{"op", "\"tensor_scalar_mul\""}, {"size", "100"}}).interval == 250);
  // a DMA of 435.2 bytes per ns at 2.4 GHz: 181.3 bytes per model cycle, shared engines
  c = instr_cost(t, "DMA0", {{"op", "\"dma_load\""}, {"size", "181333"}});
  CHECK(c.interval == 1000);
  CHECK(c.latency == 4120);
  CHECK(c.shared_dma);
  // the op decides, not the engine, for a DMA triggered from another sequencer
  CHECK(instr_cost(t, "SP", {{"op", "\"dma_store\""}, {"size", "181333"}}).shared_dma);
  // no op: the engine class's default
  CHECK(instr_cost(t, "ACT", {}).interval == 1024);
  CHECK(instr_cost(t, "E0", {}).interval == 64);
}

TEST_CASE("costs: an instruction's own interval and latency win") {
  const auto& t = timing::default_cost_table();
  auto c = instr_cost(t, "PE", {{"op", "\"matmul\""}, {"interval", "10"}, {"latency", "120"}});
  CHECK(c.interval == 10);
  CHECK(c.latency == 120);
  // a latency below the interval is raised to it
  c = instr_cost(t, "E0", {{"latency", "3"}, {"interval", "9"}});
  CHECK(c.latency == 9);
}

TEST_CASE("costs: a file overrides the default table field by field") {
  auto r = timing::parse_cost_table(R"({"syncbisim": "costs/1", "clock_ghz": 1.5,
    "sequencer": {"alu_op": 7},
    "ops": {"matmul*": {"tensor": {"fixed": 3, "latency": 4}}}})");
  REQUIRE_MESSAGE(r.ok(), r.error().to_string());
  CHECK(r->clock_ghz == 1.5);
  CHECK(r->sequencer.alu_op == 7);
  CHECK(r->sequencer.branch == timing::default_cost_table().sequencer.branch);
  auto c = instr_cost(*r, "PE", {{"op", "\"matmul\""}});
  CHECK(c.interval == 3);
  CHECK(c.latency == 7);
  // the tensor-class entry beats the "*" one of the same pattern
  CHECK(instr_cost(*r, "E0", {{"op", "\"matmul\""}, {"size", "512"}}).interval == 512);
}

TEST_CASE("costs: bad files name the place") {
  auto bad = [](const char* text, const char* place) {
    auto r = timing::parse_cost_table(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().rule == "bad-costs");
    CHECK(r.error().place == place);
  };
  bad("{", "");
  bad(R"({"clock_ghz": 1})", "/syncbisim");
  bad(R"({"syncbisim": "costs/1", "speed": 2})", "/speed");
  bad(R"({"syncbisim": "costs/1", "sequencer": {"alu_op": -1}})", "/sequencer/alu_op");
  bad(R"({"syncbisim": "costs/1", "ops": {"x": {"*": {"latency": "slow"}}}})", "/ops/x/*/latency");
  bad(R"({"syncbisim": "costs/1", "engines": [["PE"]]})", "/engines/0");
}
