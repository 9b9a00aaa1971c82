#pragma once
// Whether a dependency can ever make a consumer wait: some run the checker explores (any trip and
// branch choices the rules allow, on any engine) starts the consumer at an iteration whose target
// iteration of the producer exists (docs/semantics.md §2). A dependency that cannot is *dead*:
// no allocation can get it wrong, so a fuzz campaign that draws it has tested nothing
// (docs/fuzzing.md "What a campaign draws").
//
// Judged loop by loop, each on its own: the producer's and the consumer's loops can run (a trip
// above 0, a branch that can be taken), and every common loop with offset k can run more than k
// iterations (@top runs once). Loops whose trips are tied to each other (sequences, divergent
// rules) could still make a dependency judged live never bind, so "live" is an upper bound; "dead"
// is certain.
#include <string>
#include <vector>

#include "analysis/dependency_analysis.h"
#include "model/index.h"

namespace syncbisim::analysis {

struct DependencyLiveness {
  bool live = true;
  std::string why_dead;  // "" when live: "L0 never runs an iteration", "offset 2 at L1, whose trips run at most 2"
};

// One per entry of `analysis.deps`, in the same order.
std::vector<DependencyLiveness> dependency_liveness(const model::ProgramIndex& ix, const DependencyAnalysis& analysis);

}  // namespace syncbisim::analysis
