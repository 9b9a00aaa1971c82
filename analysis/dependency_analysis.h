#pragma once
// Static analysis of a spec's dependencies (paper §5.1-5.2, docs/semantics.md §2 and §6): for each
// Dependency its common loops, S, P, the offset at S, forward/backward, and its allocatable class
// or the reason it is not allocatable. Built on a Boost.Graph dependency graph, which also gives
// the certain deadlocks: cycles of same-iteration dependencies and program order.
#include <cstdint>
#include <string>
#include <vector>

#include "model/dependency_shape.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::analysis {

enum class DepClass : std::uint8_t {
  ProducerInS,     // P = S, any offset k: expr = r_P - k
  NestedForward,   // P below S, producer's subtree before consumer's, k = 0: expr = r_P
  NestedBackward,  // P below S, consumer's subtree first, k = 1: expr = r_P
  NotAllocatable,
};

const char* to_string(DepClass c);

// A dependency's place in the tree (model::DependencyShape: P, S, the common loops, the distance
// on each), and what the analysis finds about it.
struct DependencyInfo : model::DependencyShape {
  std::size_t dep_index = 0;  // position in Program::deps
  std::uint32_t offset = 0;   // distance at S (k)
  bool forward = true;        // paper §5.2 order in S's body
  // Producer and consumer in different branches of one cond directly in S's body: never both
  // run in one S iteration, so r_P is exact for k = 0 and k = 1 whatever the textual order
  // (docs/analysis.md, "Exclusive branches").
  bool exclusive_branches = false;
  DepClass cls = DepClass::NotAllocatable;
  std::string reason;  // why not allocatable ("" when allocatable)
  bool allocatable() const { return cls != DepClass::NotAllocatable; }
};

struct Deadlock {
  std::vector<model::InstrId> cycle;  // instructions on the cycle, in order
  std::string message;
};

struct Warning {
  std::string place;
  std::string message;
};

struct DependencyAnalysis {
  std::vector<DependencyInfo> deps;  // same order as Program::deps
  std::vector<Deadlock> deadlocks;   // certain deadlocks
  std::vector<Warning> warnings;     // e.g. a dependency that can never bind
};

DependencyAnalysis analyze_dependencies(const model::Program& spec, const model::ProgramIndex& ix);

}  // namespace syncbisim::analysis
