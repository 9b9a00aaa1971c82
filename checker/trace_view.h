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
  // Rows after the last event, in one engine's column each, labelled `closing_label`: where the
  // two sides part ("part"), or which engines are stuck ("stuck").
  std::vector<std::pair<semantics::EngineId, std::string>> closing;
  std::string closing_label = "part";
};

// One row per event, one column per engine.
std::string render_columns(const semantics::CompiledProgram& p, const std::vector<semantics::RunEvent>& events,
                           TraceOptions o = {});
// [{"step": "issue", "engine": "E0", "instr": "I0"}, ...]
nlohmann::json events_to_json(const semantics::CompiledProgram& p, const std::vector<semantics::RunEvent>& events,
                              TraceOptions o = {});
nlohmann::json step_to_json(const semantics::CompiledProgram& p, const semantics::Step& s);

// An iteration vector over a dependency's common loops, by name: "(A=2, B=1)" (@top left out
// when it is 1, as it always is but for a distance at @top). The JSON form keeps every loop.
std::string named_vector(const semantics::CompiledProgram& spec, const semantics::CompiledDep& d,
                         const std::vector<std::int64_t>& v);
nlohmann::json named_vector_json(const semantics::CompiledProgram& spec, const semantics::CompiledDep& d,
                                 const std::vector<std::int64_t>& v);
// A dependency check's target t and the consumer's iteration v = t + distance.
std::vector<std::int64_t> target_of(const semantics::DependencyCheck& c);
std::vector<std::int64_t> iteration_of(const semantics::CompiledDep& d, const semantics::DependencyCheck& c);
// The same as a trace's last JSON element: {"step": "part", "engine", "instr", "spec": "issues" |
// "waits", "impl": ..., "iteration": {loop: n}} (docs/schema/trace.schema.json).
nlohmann::json parting_json(const semantics::CompiledProgram& spec, const semantics::Mismatch& m);
// The step where the two sides part, as the trace's last row: "C (A=2, B=1) issues in the impl only".
std::string parting_text(const semantics::CompiledProgram& spec, const semantics::Mismatch& m);

// An overflow (docs/semantics.md "Widths") for people: "E1 [w := r + 1] sets w to 256, past the
// 8-bit register width (largest 255)", and as the trace's closing row ("w = 256 overflows").
std::string describe_overflow(const semantics::CompiledProgram& impl, const semantics::Overflow& o);
std::string overflow_row(const semantics::CompiledProgram& impl, const semantics::Overflow& o);
// Its fields in JSON (docs/schema/trace.schema.json $defs/overflowFields): engine, what, and by
// what the register, its operation, or the semaphore; the value, the width and its largest value.
nlohmann::json overflow_json(const semantics::CompiledProgram& impl, const semantics::Overflow& o);

// "over-synchronization: E1 may issue I2 in the spec but not in the impl" with both sides' numbers.
std::string describe_mismatch(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                              const semantics::Mismatch& m);
// The "dependency", "spec" and "impl" parts of a violation (docs/formats.md "`check --json`").
nlohmann::json mismatch_to_json(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                                const model::Program& spec_program, const semantics::Mismatch& m);

}  // namespace syncbisim::checker
