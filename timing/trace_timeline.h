#pragma once
// A checker counterexample as a timeline picture (docs/timing.md "Pictures"): the lock-step
// trace replayed, one lane per engine, a box per instruction instance from its issue step to its
// retirement step, barrier releases as dashed lines, and at the end the step where spec and impl
// part highlighted, with the broken dependency drawn as an arrow from the producer instance it
// is about and labelled with both sides' numbers. Time is the step number of the trace.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "semantics/lockstep.h"
#include "timing/timeline.h"

namespace syncbisim::timing {

struct CounterexampleView {
  std::string title;                   // e.g. "over-synchronized: E1 waits to issue I2"
  std::vector<semantics::Step> trace;  // the visible steps from the initial state
  std::optional<semantics::Mismatch> mismatch;
  // A deadlock: the engine named and the instruction it waits to issue (if it stands before one).
  std::optional<std::pair<semantics::EngineId, std::optional<semantics::InstrId>>> stuck;
  bool spec_deadlocks_too = false;
};

Timeline counterexample_timeline(const semantics::Lockstep& both, const CounterexampleView& v);

}  // namespace syncbisim::timing
