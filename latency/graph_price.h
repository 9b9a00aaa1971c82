#pragma once
// What a written dependency that over-synchronizes costs on the timing model (docs/footprints.md,
// `syncbisim deps --compare`, the public API's compare_dependencies()): the spec allocated per
// loop with the written graph, against the same with that dependency replaced by the derived
// ones of its pair, at the kernel's sim trips. In latency/ because it composes the footprint
// analysis, the allocator and the timing model.
#include "footprint/compare.h"
#include "footprint/derive.h"
#include "model/program.h"

namespace syncbisim::latency {

// Appends the price to each over-synchronizing finding's message (or why it could not be timed).
void price_over_synchronized(footprint::Comparison& c, const footprint::Derivation& derived,
                             const model::Program& spec);

}  // namespace syncbisim::latency
