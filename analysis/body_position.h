#pragma once
// Where each instruction sits in the statement tree, in the terms paper §5.2 needs: for every
// loop on its path, which top-level statement of that loop's (normalized) body holds it, and
// its place among its engine's instructions in its straight-line region. Consecutive blocks
// count as one statement (docs/semantics.md §1), so positions do not depend on how a file split
// a region into blocks.
#include <cstdint>
#include <vector>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::analysis {

struct InstrPlace {
  // stmt[d]: index of the normalized statement of the body of path(parent)[d] holding the
  // instruction (or the nested loop/cond holding it). Size = depth of the parent loop + 1.
  std::vector<std::uint32_t> stmt;
  std::uint32_t region = 0;  // index into BodyLayout::regions
  std::uint32_t order = 0;   // position among its engine's instructions in that region
};

// One straight-line region (a maximal run of consecutive blocks) of one loop body.
struct Region {
  model::LoopId loop = model::kTop;
  std::vector<std::vector<model::InstrId>> per_engine;  // indexed by EngineId, in stream order
};

struct BodyLayout {
  std::vector<InstrPlace> instrs;  // indexed by InstrId
  std::vector<Region> regions;     // in tree pre-order
  // Instruction ids per engine in tree pre-order (the order one engine walks them).
  std::vector<std::vector<model::InstrId>> engine_order;
};

// `ix` must be the index built from `p`.
BodyLayout layout_of(const model::Program& p, const model::ProgramIndex& ix);

// True if a and b sit in different branches of one cond (then/else of the same cond are never
// both entered in one iteration of the loop around the cond).
bool exclusive(const model::ProgramIndex& ix, const BodyLayout& layout, model::InstrId a, model::InstrId b);

}  // namespace syncbisim::analysis
