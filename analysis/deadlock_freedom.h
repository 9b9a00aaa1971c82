#pragma once
// Whether a spec is shown never to deadlock, for every trip count and branch choice its rules
// allow (docs/analysis.md "Deadlock freedom"). The prover's `proved` says the impl deadlocks
// exactly where the spec does; a verdict for every trip count (`check --all-trips`) may say
// `bisimilar` only when, besides, the spec itself never deadlocks, since `check` at one trip
// count calls a spec deadlock a failure (issue 43).
//
// Sufficient, not necessary: "shown" rests on a total order of all instances that every engine's
// walk and every dependency's wait respect (the argument is in docs/analysis.md); a spec outside
// it gets the first reason it failed, and a caller says the answer is inconclusive.
#include <string>
#include <vector>

#include "analysis/dependency_analysis.h"

namespace syncbisim::analysis {

struct DeadlockFreedom {
  bool shown = false;
  std::string why_not;  // !shown: the dependency or rule the argument fails on, in a sentence
};

// `deps` are the classified dependencies of `spec` (analyze_dependencies).
DeadlockFreedom deadlock_freedom(const model::Program& spec, const model::ProgramIndex& ix,
                                 const std::vector<DependencyInfo>& deps);

// The impl's side of the same question, for what the prover's consumers do not cover: a barrier
// under a loop or cond whose rule (the spec's) lets engines run different trips may wait for an
// engine that never arrives while the spec runs to its end (paper §7.5). Shown when there is none.
DeadlockFreedom barrier_freedom(const model::Program& impl, const model::ProgramIndex& spec_ix);

}  // namespace syncbisim::analysis
