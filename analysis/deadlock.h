#pragma once
// Certain deadlocks of a spec (docs/semantics.md §5): cycles in the graph whose edges are
// same-iteration dependencies and per-engine program order. Built on Boost.Graph; the
// soundness argument is in docs/analysis.md ("Deadlock detection").
#include <vector>

#include "analysis/body_position.h"
#include "analysis/dependency_analysis.h"

namespace syncbisim::analysis {

// `deps` are the classified dependencies of `spec` (analyze_dependencies fills them first).
std::vector<Deadlock> find_deadlocks(const model::Program& spec, const model::ProgramIndex& ix,
                                     const BodyLayout& layout, const std::vector<DependencyInfo>& deps);

}  // namespace syncbisim::analysis
