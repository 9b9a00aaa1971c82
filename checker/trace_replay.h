#pragma once
// Replaying a trace that check, prove, fuzz or shrink wrote (docs/checker.md "Replay"): every
// visible step is looked up among the steps the pair can take at that point (so a trace that
// does not fit the pair is found at its first step that does not), applied to both sides, and
// described with what it changed (registers, semaphores, retirements, the count a dependency
// owes); at the end the state is classified as the explorer would. Internal steps in the trace
// (register operations, loop entries) are not taken from it: the lock step derives them, and
// they are shown as what followed each visible step.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "checker/check_result.h"
#include "checker/program_pair.h"
#include "model/result.h"

namespace syncbisim::checker {

// The steps of one trace, in the one encoding every command writes (docs/schema/trace.schema.json):
// an array of step objects, ending with a "part" or "stuck" element when it leads to a violation.
struct TraceSteps {
  nlohmann::json steps = nlohmann::json::array();
  std::string source;  // "violation 2 of the file", for messages
};

// The trace in a file written by any command: `check --json` / `--trace-out` / fuzz's
// f<r>.trace.json / shrink's .min.trace.json ({"violations": [{"trace": [...]}]}), `prove --json`
// (a refuted property's "witness", unless shortened) or `prove --trace-out` ({"witnesses": [...]}),
// or a bare array. `which` picks the trace (1-based; 0: the first).
model::Result<TraceSteps> read_trace(const nlohmann::json& doc, std::size_t which = 0);

// Whether the trace has commit steps (it was written by a search without commit fusion).
bool trace_has_commits(const TraceSteps& t);

struct ReplayedStep {
  std::size_t number = 0;  // 1-based, visible steps only
  semantics::Step step;
  std::string text;                  // "issue E1 C"
  std::vector<std::string> changes;  // "impl E1: r_B 2 -> 3", "s_B_E0 0 -> 1", "R(P) 0 -> 1", ...
  std::string checks;                // at an issue: both sides' numbers
};

struct ReplayResult {
  std::string misfit;  // not empty: the trace does not fit the pair (where, and why)
  std::vector<ReplayedStep> steps;
  std::vector<semantics::Step> visible;  // the steps replayed, as the explorer records a trace
  std::vector<Violation> violations;     // at the end state, as the explorer classifies them
  // The trace's closing element, if it has one, and whether the end state shows it.
  std::optional<nlohmann::json> expected;
  bool expected_shown = false;
  semantics::LockstepState end;
};

ReplayResult replay_trace(const ProgramPair& pair, const TraceSteps& trace);

// For people: each step with its changes, then the violation reproduced (or not).
std::string render_replay(const ProgramPair& pair, const ReplayResult& r);

}  // namespace syncbisim::checker
