#pragma once
// How traces look to people and to tools: one column per engine, the way the paper's Figure 1
// draws an execution, and the JSON event list of docs/formats.md.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "semantics/lockstep.h"
#include "semantics/random_run.h"

namespace syncbisim::checker {

struct TraceOptions {
  bool internal = true;  // show loop entries, register operations and barriers too
};

// One row per event, one column per engine.
std::string render_columns(const semantics::CompiledProgram& p, const std::vector<semantics::RunEvent>& events,
                           TraceOptions o = {});
// [{"step": "issue", "engine": "E0", "instr": "I0"}, ...]
nlohmann::json events_to_json(const semantics::CompiledProgram& p, const std::vector<semantics::RunEvent>& events,
                              TraceOptions o = {});
nlohmann::json step_to_json(const semantics::CompiledProgram& p, const semantics::Step& s);

// "over-synchronization: E1 may issue I2 in the spec but not in the impl" with both sides' numbers.
std::string describe_mismatch(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                              const semantics::Mismatch& m);
// The "dependency", "spec" and "impl" parts of a violation (docs/formats.md "check --json").
nlohmann::json mismatch_to_json(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                                const model::Program& spec_program, const semantics::Mismatch& m);

}  // namespace syncbisim::checker
