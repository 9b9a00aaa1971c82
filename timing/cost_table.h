#pragma once
// What each step of an impl costs on the timing model (docs/timing.md "Costs"): a datapath
// instruction's issue interval and latency per operation and engine class, the sequencer's cost
// of dispatching an instruction, of one ALU operator and of a loop branch, and the two parts of a
// barrier (paper §8.1: drain, handshake, reset, handshake). Units are cycles of one model clock
// (`clock_ghz`, the Trainium2 Tensor Engine's 2.4 GHz by default). The default table and the
// public facts behind each number are in docs/timing.md.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/result.h"

namespace syncbisim::timing {

// The cost of one operation on one engine class. The issue interval (the cycles the engine's
// pipeline is held) is max(min, fixed + per_unit * size), where `size` is the instruction's
// "size" field (elements per partition, bytes for a DMA) or `default_size`. The instruction
// retires `latency` cycles after its interval ends.
struct OpCost {
  double fixed = 0;
  double per_unit = 0;
  double min = 0;
  double latency = 0;
  double default_size = 0;
  // Also holds the NeuronCore's DMA engines for its interval: every transfer is spread over all
  // 16 of them, so transfers from different queues share their bandwidth.
  bool shared_dma = false;
  bool operator==(const OpCost&) const = default;
};

struct SequencerCost {
  std::uint32_t dispatch = 0;  // handing one datapath instruction to the engine's pipeline
  std::uint32_t alu_op = 0;    // one ALU operator of a register operation (at least one per regop)
  std::uint32_t branch = 0;    // the loop branch, once per iteration on every engine running the loop
  bool operator==(const SequencerCost&) const = default;
};

struct BarrierCost {
  std::uint32_t handshake = 0;  // one all-engine handshake (a barrier has two)
  std::uint32_t reset = 0;      // resetting the semaphores
  bool operator==(const BarrierCost&) const = default;
};

struct CostTable {
  double clock_ghz = 2.4;
  // Engine name patterns ("DMA*" matches a prefix, "*" anything) to engine classes, tried in order.
  std::vector<std::pair<std::string, std::string>> engine_classes;
  // Operation pattern -> engine class (or "*") -> cost. Patterns: an exact op name, a prefix
  // ending in "*", or "*". The longest matching pattern that names the class (or "*") wins.
  std::map<std::string, std::map<std::string, OpCost>> ops;
  SequencerCost sequencer;
  BarrierCost barrier;
  bool operator==(const CostTable&) const = default;

  std::string engine_class(const std::string& engine) const;
  // The cost of `op` ("" when the instruction names none) on an engine of class `cls`.
  OpCost op_cost(const std::string& op, const std::string& cls) const;
};

// The documented default (docs/timing.md), shaped after public Trainium2 facts.
const CostTable& default_cost_table();

// A cost file: {"syncbisim": "costs/1", ...} (docs/timing.md). Fields left out keep the default
// table's values; "ops" entries are merged into the default's. Errors name the JSON pointer.
model::Result<CostTable> parse_cost_table(const std::string& text);
model::Result<CostTable> load_cost_table(const std::string& path);

// The cost of one datapath instruction, from the table and the instruction's own fields.
struct InstrCost {
  std::uint64_t interval = 1;  // cycles the engine's pipeline is held (at least 1)
  std::uint64_t latency = 1;   // issue to retirement (at least the interval)
  bool shared_dma = false;     // also holds the shared DMA engines for the interval
};

// `extra` is the instruction's extra fields (model::Instr::extra: key -> compact JSON text):
// "op", "size", and the overrides "interval" and "latency" (cycles, issue to retirement).
InstrCost instr_cost(const CostTable& t, const std::string& engine, const std::map<std::string, std::string>& extra);

}  // namespace syncbisim::timing
