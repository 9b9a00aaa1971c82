#include "allocator/expr_build.h"

namespace syncbisim::allocator {

using model::Expr;
using model::ExprOp;

namespace {
bool is_const(const Expr& e, std::uint64_t v) { return e.is_constant() && e.nodes[0].value == v; }
// Two constants fold into one unless the value passes 2^64 - 1: then the expression stays as it
// is, and evaluating it reports the overflow (docs/semantics.md "Widths") instead of a wrapped constant.
Expr fold(ExprOp op, const Expr& a, const Expr& b) {
  std::uint64_t v = 0;
  if (a.is_constant() && b.is_constant() && model::apply_op(op, a.nodes[0].value, b.nodes[0].value, v))
    return Expr::constant(v);
  return Expr::binary(op, a, b);
}
}  // namespace

Expr num(std::uint64_t v) { return Expr::constant(v); }

Expr add(const Expr& a, const Expr& b) {
  if (is_const(a, 0)) return b;
  if (is_const(b, 0)) return a;
  return fold(ExprOp::Add, a, b);
}

Expr sub(const Expr& a, const Expr& b) {
  if (is_const(b, 0)) return a;
  return fold(ExprOp::Sub, a, b);
}

Expr mul(const Expr& a, const Expr& b) {
  if (is_const(a, 0) || is_const(b, 0)) return num(0);
  if (is_const(a, 1)) return b;
  if (is_const(b, 1)) return a;
  return fold(ExprOp::Mul, a, b);
}

Expr isgt(const Expr& a, const Expr& b) { return fold(ExprOp::IsGt, a, b); }

}  // namespace syncbisim::allocator
