#pragma once
// What a drawn spec exercises (issue 40): each dependency's case (paper §5.2 and beyond), offset,
// the depth of the loop it is carried at, whether its ends share an engine and whether it is live
// (analysis/dependency_liveness.h: some wait can bind); of the spec, its nesting depth and whether
// it has conds and divergent trips. A campaign adds them up (fuzz/generator_stats.h) to show where
// its draws went.
#include <cstdint>
#include <vector>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::fuzz {

// paper §5.2's four allocatable cases (producer in S split by direction), then the shapes beyond:
// producer and consumer in exclusive branches of one cond, offsets above S (multi-level), a nested
// producer at an offset §5.2 does not admit.
enum class DependencyCase : std::uint8_t {
  ProducerInSForward,
  ProducerInSBackward,  // the producer later in S's body: the dependency wraps around S's back edge
  NestedForward,
  NestedBackward,
  ExclusiveBranches,
  MultiLevel,
  NestedOtherOffset,
};
inline constexpr std::size_t kDependencyCases = 7;
const char* to_string(DependencyCase c);

struct DependencyProfile {
  DependencyCase kind = DependencyCase::ProducerInSForward;
  std::uint32_t offset = 0;  // at S; for a multi-level one the largest entry
  std::uint32_t depth = 0;   // of S (@top 0)
  bool same_engine = false;
  bool live = false;
};

struct SpecProfile {
  std::vector<DependencyProfile> deps;  // in Program::deps order
  std::uint32_t depth = 0;              // deepest nesting of loops and cond branches
  bool conds = false, divergent = false;
  bool footprints = false;  // a kernel with footprints (its graph derived from them)
  std::uint32_t consumers_with_several = 0;  // consumers with two or more live dependencies
  bool degenerate() const;                   // no live dependency
};

SpecProfile profile_spec(const model::Program& spec, const model::ProgramIndex& ix);

}  // namespace syncbisim::fuzz
