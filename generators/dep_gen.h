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
};

std::vector<model::Dependency> resolve_deps(const std::vector<InstrPlace>& places, const std::vector<DepPick>& picks,
                                            DepMode mode);

}  // namespace syncbisim::generators
