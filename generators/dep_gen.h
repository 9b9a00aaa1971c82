#pragma once
// Dependencies are generated as abstract picks, independent of the tree, and resolved against
// the finished tree (modulo the number of instructions). Picks and tree shrink independently
// and every combination resolves to valid dependencies.
#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "generators/places.h"
#include "model/program.h"

namespace syncbisim::generators {

struct DepPick {
  std::uint32_t consumer = 0;
  std::uint32_t producer = 0;
  std::uint32_t k = 0;                 // allocatable mode: the offset at S when P = S (mod 3)
  std::vector<std::uint32_t> offsets;  // arbitrary mode: offsets per common loop, @top first
  std::uint32_t level = 0;             // live mode: which loop around the consumer the producer shares
};

rc::Gen<DepPick> gen_dep_pick();

struct DepMode {
  // Only the allocatable shapes of docs/semantics.md §6, at most one dependency per consumer.
  bool allocatable_only = false;
  // Drop dependencies whose distance is all zero unless the producer comes first in pre-order
  // (with uniform trips the spec can then never deadlock: every wait points backwards).
  bool acyclic = false;
  // Offsets at @top are kept (otherwise dropped: @top runs once, so they never bind anyway).
  bool distance_at_top = true;
  // Every dependency can bind (issue 40): both ends are instructions that can run, and each
  // offset is below the most iterations its loop runs (the trips reach offset + 1), so an
  // offset at @top or a cond branch is 0. Picks land on instructions that can run.
  bool live = false;
  // In live mode, one pick in three may land in dead code and take any offset up to max_offset: a
  // dependency that may be dead beside live ones (an offset at a cond branch, which runs once per
  // entry; a trip no iteration reaches). How an allocator treats
  // a wait that can never bind is code too, and can be wrong (a mask whose register is never
  // reset opens where it should stay shut).
  bool dead_picks = false;
  // Swarm features (generators/swarm.h): each turns a part of the draw off or on.
  bool several_per_consumer = false;  // allocatable mode: lift the one-dependency-per-consumer rule
  bool same_engine = true;            // producer and consumer may share an engine
  bool producer_in_s = true;          // producers directly in S (paper §5.2's first case)
  bool nested = true;                 // producers in a loop below S
  std::uint32_t max_offset = 2;
  std::uint32_t max_trip = 3;  // live mode: an offset at a loop is below it (raise_trips then reaches it)
};

// `reach` (loop_reach) is read only in `live` mode.
std::vector<model::Dependency> resolve_deps(const std::vector<InstrPlace>& places, const std::vector<DepPick>& picks,
                                            DepMode mode, const std::map<std::string, LoopReach>& reach = {});

// Raises the trip rules of `p`'s loops so that every offset k of a dependency at a loop has a trip
// of k + 1 iterations to bind in (issue 40: "trips that reach each offset plus one"): a constant
// below k + 1 becomes k + 1, a range's maximum and a sequence's last (repeating) value likewise.
void raise_trips(model::Program& p);

}  // namespace syncbisim::generators
