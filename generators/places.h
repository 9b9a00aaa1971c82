#pragma once
// Names and positions in a generated tree: ids are given after the tree is built (so shrinking
// never produces duplicates), and dependencies are resolved against the positions of the
// final, normalized tree.
#include <cstddef>
#include <string>
#include <vector>

#include "model/program.h"

namespace syncbisim::generators {

// Gives every loop, cond and instruction a fresh id in pre-order: L0, L1, ... / C0, ... / I0, ...
void assign_ids(model::Program& p);

// Where an instruction sits: the loops around it from @top inward (cond branches as their loops
// "C.then" / "C.else"), its engine, and its rank in pre-order (blocks in order, streams in
// order, items in order; a cond's then branch before its else branch).
struct InstrPlace {
  std::string id;
  std::string engine;
  std::vector<std::string> loops;  // loops.front() is @top, loops.back() the parent loop
  std::size_t rank = 0;
};

std::vector<InstrPlace> instr_places(const model::Program& p);

// The common loops of two places, @top first (never empty: @top encloses everything).
std::vector<std::string> common_loops(const InstrPlace& a, const InstrPlace& b);

}  // namespace syncbisim::generators
