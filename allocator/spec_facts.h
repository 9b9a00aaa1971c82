#pragma once
// What every strategy reads about the spec, computed once per allocation and never changed:
// the dependency classes (paper §5.2), where each instruction sits, and the body counts N, K.
#include <string>
#include <vector>

#include "allocator/body_counts.h"
#include "analysis/body_position.h"
#include "analysis/dependency_analysis.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::allocator {

struct SpecFacts {
  const model::Program& spec;
  const model::ProgramIndex& ix;
  analysis::DependencyAnalysis analysis;
  analysis::BodyLayout layout;
  BodyCounts counts;
  // The instructions directly in each loop's body, in InstrId order (by LoopId): what a loop's
  // semaphore counts, found once instead of by scanning the program per loop.
  std::vector<std::vector<model::InstrId>> direct;

  // `spec` normalized and `ix` built from it; both must outlive the facts.
  SpecFacts(const model::Program& s, const model::ProgramIndex& i);
  // With the dependency analysis of `s` and `i` already made (the command line's warnings made it).
  SpecFacts(const model::Program& s, const model::ProgramIndex& i, analysis::DependencyAnalysis a);
  SpecFacts(const SpecFacts&) = delete;
  SpecFacts& operator=(const SpecFacts&) = delete;

  const analysis::DependencyInfo& dep(std::size_t d) const { return analysis.deps[d]; }
};

// "I3 -> I2 {A: 2}"
std::string dep_label(const model::Dependency& d);

}  // namespace syncbisim::allocator
