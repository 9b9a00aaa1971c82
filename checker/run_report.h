#pragma once
// `syncbisim run` (one execution under a seeded random scheduler, semantics/random_run.h) made and
// reported: the spec alone, or spec and impl in lock step after an optional trace (run --from);
// the outcome, the events in per-engine columns or as JSON (run/1), and what ended the run. The
// command (cli/cmd_run.cpp) and the public API's run() both go through these, so that they print
// the same bytes; the command keeps its files (--svg, the trace's file name in a misfit).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/program_pair.h"
#include "checker/trace_replay.h"
#include "model/program.h"
#include "model/result.h"
#include "model/value_width.h"
#include "semantics/compiled_program.h"
#include "semantics/random_run.h"

namespace syncbisim::checker {

struct RunOptions {
  std::uint64_t seed = 1;          // the scheduler's (run --seed)
  std::size_t max_steps = 100000;  // random steps at most, then outcome step-limit (run --max-steps)
  bool visible_only = false;       // the events shown: issue, retire and choices only (run --visible-only)
};

// The semantics a lock-step run's pair is made with: commits fused, unless the trace taken first
// has commit steps of its own (it came from a search without fusion); the impl's widths.
semantics::Options run_semantics(const TraceSteps* from, const model::ValueWidths& widths);

// The spec alone, compiled (semantics::compile).
semantics::RunResult run_once(const semantics::CompiledProgram& spec, const RunOptions& options);
// Both in lock step: the steps of `from` first (they must fit the pair, else a Diagnostic of rule
// "trace-misfit" without a file), then at random from where they end.
model::Result<semantics::RunResult> run_once(const ProgramPair& pair, const RunOptions& options,
                                             const TraceSteps* from = nullptr);

// What `run SPEC` prints, and with --json.
std::string render_run_text(const semantics::CompiledProgram& spec, const semantics::RunResult& r,
                            const RunOptions& options);
nlohmann::json render_run_json(const semantics::CompiledProgram& spec, const semantics::RunResult& r,
                               const RunOptions& options);
// What `run SPEC IMPL` prints, and with --json; `spec` is the program the pair was made from.
std::string render_run_text(const ProgramPair& pair, const semantics::RunResult& r, const RunOptions& options);
nlohmann::json render_run_json(const ProgramPair& pair, const model::Program& spec, const semantics::RunResult& r,
                               const RunOptions& options);

// The command's exit status: 0 finished, 3 at the step limit, 1 otherwise (a deadlock, a
// mismatch, an overflow).
int run_exit_status(semantics::RunOutcome o);

}  // namespace syncbisim::checker
