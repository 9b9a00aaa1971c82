#pragma once
// Replaying a counterexample (docs/prover.md "Refutations"): the pair with the model's trip
// counts fixed as constants (each one a value the original rule allows, so every run of the new
// pair is a run of the original), checked exhaustively by the explorer; a violation found at the
// consumer is a real one.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/program.h"
#include "prover/prove.h"

namespace syncbisim::prover {

struct ReplayRequest {
  std::map<std::string, std::uint64_t> loop_trips;  // loop id -> constant trip
  std::map<std::string, std::uint64_t> cond_taken;  // cond id -> 0 then / 1 else
  std::string instr, engine;                        // the consumer
  std::uint64_t max_states = 2000000;
  double max_seconds = 20;
};

// The violation at the consumer, if the explorer finds one.
std::optional<Replay> replay(const model::Program& spec, const model::Program& impl, const ReplayRequest& r);

}  // namespace syncbisim::prover
