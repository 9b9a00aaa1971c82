#pragma once
// Recognizing counter registers (docs/prover.md "Impl side"): a register of one engine
// written only by one increment `r := r + a` directly in a loop body l and at most one constant
// assignment `r := v` directly in the body of a strict ancestor A of l, before l's statement.
// Its value at any point is then v + a * (increments since the last assignment): a closed form
// in the loop-entry counts (docs/prover.md "Registers"). The paper's r_l (never assigned) and
// r̂_l (assigned 0 in l's parent) are the two cases the allocator emits.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "prover/places.h"

namespace syncbisim::prover {

struct Counter {
  model::LoopId loop = model::kTop;  // the increment is directly in this loop's body
  Place inc;
  std::uint64_t add = 0;
  model::LoopId reset_loop = model::kTop;  // @top when never assigned (starts at 0)
  std::optional<Place> reset;
  std::uint64_t init = 0;
};

struct CounterScan {
  std::map<std::string, Counter> counters;
  std::map<std::string, std::string> why_not;  // register -> why it is not a counter
};

CounterScan scan_counters(const Places& places, model::EngineId engine);

}  // namespace syncbisim::prover
