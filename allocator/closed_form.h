#pragma once
// The wait the allocator's per-loop strategy gives each dependency, as its decision line says it
// (docs/allocator.md "Reading the decision lines"): what a check that finds a mismatch shows
// beside the threshold the one failing state needed, so that the user sees the wait that holds
// at every state (issue 42: answers that name the fix).
#include <string>
#include <vector>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::allocator {

// One string per dependency in Program::deps order: "per-loop s_A_E0 N=2 K=2, wait s_A_E0 >=
// 2 * r_A" ("" where the strategy gives no closed form: a fallback, a barrier, no wait, or a spec
// it refuses). Semaphores and registers are named as the allocator names them.
std::vector<std::string> per_loop_closed_forms(const model::Program& spec, const model::ProgramIndex& ix);

}  // namespace syncbisim::allocator
