#pragma once
// What `syncbisim simulate` prints of a simulation (docs/timing.md): the text for people and the
// simulate/1 JSON document (docs/schema/simulate.schema.json). The command and the public API's
// simulate() both call these, so the two cannot print different things.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "semantics/compiled_program.h"
#include "timing/range_makespans.h"
#include "timing/simulate.h"

namespace syncbisim::timing {

// `code` is the impl the simulation ran: it names the instructions, engines and semaphores.
std::string simulation_text(const Simulation& s, const semantics::CompiledProgram& code);
nlohmann::json simulation_json(const Simulation& s, const semantics::CompiledProgram& code);
// The same with the makespans over the dynamic ranges (timing/range_makespans.h) after it: what
// the command prints.
std::string simulation_text(const Simulation& s, const semantics::CompiledProgram& code,
                            const std::vector<RangeMakespan>& ranges);
nlohmann::json simulation_json(const Simulation& s, const semantics::CompiledProgram& code,
                               const std::vector<RangeMakespan>& ranges);

}  // namespace syncbisim::timing
