#pragma once
// Names and positions in a generated tree: ids are given after the tree is built (so shrinking
// never produces duplicates), and dependencies are resolved against the positions of the
// final, normalized tree.
#include <cstddef>
#include <cstdint>
#include <map>
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

// How far a loop of the tree can run, by the name InstrPlace::loops gives it: the most iterations
// one trip runs on any engine (a cond branch and @top: 1) and whether its body can run at all (it
// and every loop around it can run an iteration, every branch on the way can be taken). What a
// dependency needs to bind (analysis/dependency_liveness.h judges a finished spec the same way).
struct LoopReach {
  std::uint32_t most = 1;
  bool runs = true;
  bool is_loop = false;  // a loop statement (not @top, not a cond branch): its trips can be raised
};
std::map<std::string, LoopReach> loop_reach(const model::Program& p);

// The common loops of two places, @top first (never empty: @top encloses everything).
std::vector<std::string> common_loops(const InstrPlace& a, const InstrPlace& b);

}  // namespace syncbisim::generators
