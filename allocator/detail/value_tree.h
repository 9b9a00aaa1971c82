#pragma once
// A wait value as a tree (docs/allocator.md "ALU reductions"): easier to regroup and to share
// than the flat model::Expr. Used by the reductions (reductions.cpp) and their common
// subexpressions (shared_subexpressions.h).
#include <cstdint>
#include <string>
#include <vector>

#include "model/expr.h"

namespace syncbisim::allocator::detail {

struct Tree {
  model::ExprOp op = model::ExprOp::Const;
  std::uint64_t value = 0;
  std::string reg;
  std::vector<Tree> kids;  // two for an operator
};

// An operator node (not a constant, not a register).
bool binary(model::ExprOp op);
Tree tree_of(const model::Expr& e);
model::Expr expr_of(const Tree& t);
Tree reg(std::string name);
// The operator node `op` over a and b, moved in (a braced list of kids would copy both subtrees:
// an initializer_list's elements are const).
Tree node(model::ExprOp op, Tree a, Tree b);
// Operators in the tree.
std::uint32_t cost(const Tree& t);
// The tree's text (model::Expr::to_string): equal keys, equal trees.
std::string key(const Tree& t);

}  // namespace syncbisim::allocator::detail
