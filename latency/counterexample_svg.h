#pragma once
// A trace drawn as an SVG timeline (timing/trace_timeline.h): the counterexample of a check (the
// violation that decides its verdict) and a run to its end. The command's --svg writes these, the
// public API returns them, the --html page inlines them: one drawing for all three.
#include <optional>
#include <string>

#include "checker/check_result.h"
#include "semantics/lockstep.h"
#include "semantics/random_run.h"
#include "timing/trace_timeline.h"

namespace syncbisim::latency {

// The violation `check --svg` draws: an under-synchronization first, else the first; nullptr
// when there is none.
const checker::Violation* deciding_violation(const checker::CheckResult& r);
// What the picture of one violation shows: its trace, its title and the step or engine to
// highlight.
timing::CounterexampleView counterexample_view(const semantics::Lockstep& both, const checker::Violation& v);

// The deciding violation's picture; nullopt when the check found none.
std::optional<std::string> counterexample_svg(const semantics::Lockstep& both, const checker::CheckResult& r);
// A run that stopped at a mismatch, a deadlock or its end.
std::string run_svg(const semantics::Lockstep& both, const semantics::RunResult& r);

}  // namespace syncbisim::latency
