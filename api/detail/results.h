#pragma once
// The tool's results as the public API states them, shared by the calls that return them: check()
// and check_all_trips() (its explorer part), prove() and check_all_trips() (its prover part), and
// run() (a mismatch as a Violation), replay() and run() (a trace given as text or a path). Not
// installed.
#include <nlohmann/json.hpp>
#include <string>

#include "checker/check_result.h"
#include "checker/trace_replay.h"
#include "prover/prove.h"
#include "semantics/lockstep.h"
#include "syncbisim/syncbisim.h"

namespace syncbisim::api::detail {

Verdict verdict_of(checker::Verdict v);

// A check's result from the JSON its command prints (`j`: checker::render_json and whatever the
// command adds to it) and its text, so that the two never disagree; `json` is `j` printed as the
// command prints it.
CheckResult check_result(const semantics::Lockstep& both, const checker::CheckResult& r, const nlohmann::json& j,
                         std::string text);

// The fields of an under- or over-synchronization from its JSON (checker::mismatch_to_json, as
// check --json and run --json write it): kind, engine, instr, dependency, both sides' numbers, fix,
// closed form. The description and the trace are the caller's.
void mismatch_fields(const nlohmann::json& j, Violation& out);

// A prover's result with its witnesses in the trace encoding every command writes, its text and
// JSON as `prove` prints them.
ProveResult prove_result(const prover::ProveResult& r);

// A trace argument (replay()'s `trace`, RunOptions::from): its file's JSON text, or a path to it
// (a string without '{' or '[' naming an existing file); `which` picks the trace (1-based; 0: the
// first). `name` stands for the file in messages ("<trace>" for text). Throws Error (rules "io",
// "bad-json", and read_trace's).
struct TraceArgument {
  checker::TraceSteps steps;
  std::string name;
};
TraceArgument read_trace_argument(const std::string& trace, std::size_t which);

}  // namespace syncbisim::api::detail
