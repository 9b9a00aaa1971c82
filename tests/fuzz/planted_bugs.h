#pragma once
// Allocators with a deliberately planted bug, for the test suite only (GitHub issue 6): each one
// calls the real per-loop allocation and then corrupts its wait values the way a plausible
// implementation mistake would.
#include <functional>

#include "fuzz/allocate_fn.h"
#include "model/expr.h"
#include "model/walk.h"

namespace syncbisim::test {

// Rewrites every register operation's expression of an impl.
inline void rewrite_exprs(model::Program& impl, const std::function<model::Expr(const model::Expr&)>& f) {
  model::for_each_stream(impl.body, [&](model::Stream& s) {
    for (auto& item : s.items)
      if (auto* r = std::get_if<model::RegOp>(&item)) r->expr = f(r->expr);
  });
}

// The subexpression rooted at node i, as an expression of its own.
inline model::Expr subtree(const model::Expr& e, std::uint32_t i) {
  const auto& n = e.nodes[i];
  if (n.op == model::ExprOp::Const) return model::Expr::constant(n.value);
  if (n.op == model::ExprOp::Reg) return model::Expr::reg(n.reg);
  return model::Expr::binary(n.op, subtree(e, n.lhs), subtree(e, n.rhs));
}

inline fuzz::AllocateFn corrupted_per_loop(std::function<model::Expr(const model::Expr&)> corrupt) {
  return [corrupt](const model::Program& spec, const model::ProgramIndex& ix) {
    auto reply = fuzz::allocate_with(allocator::Strategy::PerLoop)(spec, ix);
    if (auto* a = std::get_if<fuzz::Allocated>(&reply.answer)) rewrite_exprs(a->impl, corrupt);
    return reply;
  };
}

// r_P - k becomes r_P - (k - 1): waits for the instance one iteration too late.
inline fuzz::AllocateFn off_by_one_offset() {
  return corrupted_per_loop([](const model::Expr& e) {
    model::Expr out = e;
    for (const auto& n : e.nodes)
      if (n.op == model::ExprOp::Sub && e.nodes[n.lhs].op == model::ExprOp::Reg &&
          e.nodes[n.lhs].reg.rfind("r_", 0) == 0 && e.nodes[n.rhs].op == model::ExprOp::Const &&
          e.nodes[n.rhs].value >= 1)
        out.nodes[n.rhs].value -= 1;
    return out;
  });
}

// isgt(rh_S, k) * rest becomes rest when k >= 1: no mask for offset dependencies.
inline fuzz::AllocateFn dropped_mask() {
  return corrupted_per_loop([](const model::Expr& e) {
    const auto& root = e.nodes.back();
    if (root.op != model::ExprOp::Mul) return e;
    const auto& mask = e.nodes[root.lhs];
    if (mask.op != model::ExprOp::IsGt || e.nodes[mask.rhs].op != model::ExprOp::Const || e.nodes[mask.rhs].value < 1)
      return e;
    return subtree(e, root.rhs);
  });
}

}  // namespace syncbisim::test
