#pragma once
// Generators for trip rules (docs/semantics.md §1): constants, small ranges and sequences, uniform
// or per-engine. Per-engine entries name engines by slot (see slots.h); resolve_slots() turns
// them into names once the engine list is known.
#include <rapidcheck.h>

#include <cstdint>

#include "model/trip_rule.h"

namespace syncbisim::generators {

// Which kinds of choice a generator may give (swarm testing turns some off for a whole draw).
struct TripKinds {
  bool ranges = true, sequences = true;
  bool zero = true;  // loops may run 0 iterations (dead code when a rule gives nothing else)
};

// A loop's choice: values in 0..max_trip (1..max_trip without `zero`), ranges at most 3 values wide.
rc::Gen<model::Choice> gen_loop_choice(std::uint32_t max_trip, TripKinds kinds = {});

// A cond's choice over {0 = then, 1 = else}: then, else, any (the range 0..1) or a sequence.
rc::Gen<model::Choice> gen_branch_choice(TripKinds kinds = {});

// A rule over `choice`: uniform, or (if `allow_divergent`) sometimes per-engine with up to
// three entries naming engine slots below `engine_slots`.
rc::Gen<model::TripRule> gen_trip_rule(rc::Gen<model::Choice> choice, bool allow_divergent, std::uint32_t engine_slots);

}  // namespace syncbisim::generators
