#pragma once
// --max-trip K: caps every dynamic range trip at K (issue 5, "Limits"). A capped search covers
// fewer executions, so it can find violations but never prove the pair bisimilar.
#include <cstdint>

#include "semantics/compiled_program.h"

namespace syncbisim::checker {

// Returns true if some range was cut.
bool cap_trip_ranges(semantics::CompiledProgram& p, std::uint32_t k);

}  // namespace syncbisim::checker
