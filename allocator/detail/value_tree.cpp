#include "allocator/detail/value_tree.h"

namespace syncbisim::allocator::detail {

using model::Expr;
using model::ExprOp;

bool binary(ExprOp op) { return op != ExprOp::Const && op != ExprOp::Reg; }

namespace {
Tree tree_of(const Expr& e, std::uint32_t n) {
  const auto& nd = e.nodes[n];
  Tree t{nd.op, nd.value, nd.reg, {}};
  if (binary(nd.op)) t.kids = {tree_of(e, nd.lhs), tree_of(e, nd.rhs)};
  return t;
}
}  // namespace

Tree tree_of(const Expr& e) { return tree_of(e, static_cast<std::uint32_t>(e.nodes.size() - 1)); }

Expr expr_of(const Tree& t) {
  if (t.op == ExprOp::Const) return Expr::constant(t.value);
  if (t.op == ExprOp::Reg) return Expr::reg(t.reg);
  return Expr::binary(t.op, expr_of(t.kids[0]), expr_of(t.kids[1]));
}

Tree reg(std::string name) { return Tree{ExprOp::Reg, 0, std::move(name), {}}; }

std::uint32_t cost(const Tree& t) {
  std::uint32_t c = binary(t.op) ? 1 : 0;
  for (const auto& k : t.kids) c += cost(k);
  return c;
}

namespace {

// model::Expr::to_string's rendering, straight from the tree (no Expr is built: keys are taken
// of every subexpression, so this is the allocator's inner loop).
void render(const Tree& t, std::string& out) {
  switch (t.op) {
    case ExprOp::Const: out += std::to_string(t.value); return;
    case ExprOp::Reg: out += t.reg; return;
    case ExprOp::IsGt:
      out += "isgt(";
      render(t.kids[0], out);
      out += ", ";
      render(t.kids[1], out);
      out += ")";
      return;
    default: break;
  }
  const int p = precedence(t.op);
  // Left-associative operators: a left operand of equal precedence needs no parentheses, a
  // right one does ("a - (b - c)").
  const bool lp = precedence(t.kids[0].op) < p, rp = precedence(t.kids[1].op) <= p;
  if (lp) out += "(";
  render(t.kids[0], out);
  if (lp) out += ")";
  out += t.op == ExprOp::Add ? " + " : t.op == ExprOp::Sub ? " - " : " * ";
  if (rp) out += "(";
  render(t.kids[1], out);
  if (rp) out += ")";
}
}  // namespace

std::string key(const Tree& t) {
  std::string out;
  render(t, out);
  return out;
}

}  // namespace syncbisim::allocator::detail
