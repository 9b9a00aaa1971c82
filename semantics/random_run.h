#pragma once
// One execution under a seeded random scheduler (`syncbisim run`): the spec alone, or spec and
// impl in lock step, stopping at the first mismatch of issue enabledness.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "semantics/lockstep.h"

namespace syncbisim::semantics {

struct RunEvent {
  Step step;
  bool visible = false;
  std::string detail;  // numbers worth showing: a register's new value, the waits at an issue
};

// Overflow: a register or semaphore value passed its width (docs/semantics.md "Widths").
enum class RunOutcome : std::uint8_t { Finished, Deadlock, Mismatch, StepLimit, Overflow };
const char* to_string(RunOutcome o);

struct RunResult {
  RunOutcome outcome = RunOutcome::Finished;
  std::vector<RunEvent> events;
  std::optional<Mismatch> mismatch;  // with Mismatch
  std::vector<EngineId> stuck;       // with Deadlock: engines not finished
  std::vector<Overflow> overflows;   // with Overflow: what passed its width
  std::string limit;                 // with StepLimit: the limit that stopped the run, if not max_steps
};

// "A #2" after a step that started iteration 2 of A; "A skipped" for a trip of 0.
std::string iteration_detail(const CompiledProgram& p, const ControlState& s, const Step& st);

RunResult run_spec(const SpecSystem& spec, std::uint64_t seed, std::size_t max_steps = 100000);
// A random lock-step execution, after taking `prefix` (visible steps the pair can take, e.g. a
// replayed trace: run --from) first; its events are part of the result, and max_steps counts the
// random steps only.
RunResult run_lockstep(const Lockstep& both, std::uint64_t seed, std::size_t max_steps = 100000,
                       const std::vector<Step>& prefix = {});
// The events of a lock-step execution along the given visible steps (a counterexample's trace),
// internal steps included.
std::vector<RunEvent> replay_lockstep(const Lockstep& both, const std::vector<Step>& visible_steps);
// The same events handed to `sink` one by one as they happen, none kept: for traces of millions
// of steps (the prover's deep witnesses).
void replay_lockstep(const Lockstep& both, const std::vector<Step>& visible_steps,
                     const std::function<void(const RunEvent&)>& sink);

}  // namespace syncbisim::semantics
