#pragma once
// --max-trip K: caps every dynamic range trip at K (docs/checker.md, "Search"). A capped search
// covers fewer executions, so it can find violations but never prove the pair bisimilar
// (ProgramPair::make applies the cap and checker::check of the pair says so).
#include <cstdint>

#include "semantics/compiled_program.h"

namespace syncbisim::checker {

// Returns true if some range was cut.
bool cap_trip_ranges(semantics::CompiledProgram& p, std::uint32_t k);

}  // namespace syncbisim::checker
