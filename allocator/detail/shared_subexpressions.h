#pragma once
// Common subexpressions of the wait values of one straight-line region on one engine (paper
// §6.2, docs/allocator.md "ALU reductions"). The definition: repeatedly, the costliest
// subexpression (at least one operator; among equally costly ones the first by key) that
// occurs twice or more, in the values and in the shared values defined so far, gets a register
// of its own (cs1, cs2, ...) and every occurrence reads it.
#include <string>
#include <utility>
#include <vector>

#include "allocator/detail/value_tree.h"

namespace syncbisim::allocator::detail {

struct Shared {
  std::vector<std::pair<std::string, Tree>> defs;  // cs1, cs2, ... and their values
};

// Rewrites the trees of `pool` in place and returns the shared values. Near-linear in the size
// of the pool: the subexpressions are counted once and taken in the order the definition picks
// them (docs/allocator.md "Complexity").
Shared share(const std::vector<Tree*>& pool);

}  // namespace syncbisim::allocator::detail
