#pragma once
// The --svg flags of commands that print a trace (check, run): the counterexample drawn as a
// timeline (latency/counterexample_svg.h), written atomically. One function per command, so that each
// command calls one line.
#include <string>

#include "checker/check_result.h"
#include "semantics/lockstep.h"
#include "semantics/random_run.h"

namespace syncbisim::cli {

// The violation that decides the verdict (an under-synchronization first). Returns 0, or 2 after
// printing the error; with no violation writes nothing and says so on stderr.
int write_counterexample_svg(const std::string& path, const semantics::Lockstep& both, const checker::CheckResult& r);
// A run that stopped at a mismatch or a deadlock.
int write_run_svg(const std::string& path, const semantics::Lockstep& both, const semantics::RunResult& r);

}  // namespace syncbisim::cli
