#pragma once
// Where a dependency sits in the program tree (docs/semantics.md §2): its producer's parent loop
// P, the common loops of producer and consumer from @top down to the innermost one, S, and its
// distance on each common loop (0 where it names none). The spec's condition
// (semantics::CompiledDep) and the static analysis (analysis::DependencyInfo) both start here.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::model {

struct DependencyShape {
  InstrId producer = 0, consumer = 0;
  EngineId producer_engine = 0, consumer_engine = 0;
  LoopId P = kTop;                      // the producer's parent loop
  LoopId S = kTop;                      // the innermost common loop
  std::vector<LoopId> common;           // @top .. S, outermost first
  std::vector<std::uint32_t> distance;  // one per common loop (0 on a starred one)
  // The first common loop written `L=*` (docs/semantics.md §2, "Whole iterations"): from this
  // position down, the consumer owes every iteration; common.size() when none is starred. Code
  // that reads only `distance` must refuse a shape with whole_iterations() (it would owe less).
  std::size_t whole_from = 0;
  bool whole_iterations() const { return whole_from < common.size(); }
};

// Nothing if the dependency names an instruction `ix` does not know (ProgramIndex::build rejects
// such a program).
std::optional<DependencyShape> shape_of(const Dependency& d, const ProgramIndex& ix);

}  // namespace syncbisim::model
