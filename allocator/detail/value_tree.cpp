#include "allocator/detail/value_tree.h"

namespace syncbisim::allocator::detail {

using model::Expr;
using model::ExprOp;

bool binary(ExprOp op) { return op != ExprOp::Const && op != ExprOp::Reg; }

namespace {
Tree tree_of(const Expr& e, std::uint32_t n) {
  const auto& nd = e.nodes[n];
  if (binary(nd.op)) return node(nd.op, tree_of(e, nd.lhs), tree_of(e, nd.rhs));
  return Tree{nd.op, nd.value, nd.reg, {}};
}
}  // namespace

Tree tree_of(const Expr& e) { return tree_of(e, static_cast<std::uint32_t>(e.nodes.size() - 1)); }

namespace {
// The nodes Expr::binary(op, expr_of(a), expr_of(b)) would give (a's, then b's, then the
// operator), appended in place instead of copied at every level; returns t's root index.
std::uint32_t append(const Tree& t, std::vector<model::ExprNode>& nodes) {
  if (t.op == ExprOp::Const) {
    nodes.push_back(model::ExprNode{ExprOp::Const, t.value, {}, 0, 0});
  } else if (t.op == ExprOp::Reg) {
    nodes.push_back(model::ExprNode{ExprOp::Reg, 0, t.reg, 0, 0});
  } else {
    const auto lhs = append(t.kids[0], nodes);
    const auto rhs = append(t.kids[1], nodes);
    nodes.push_back(model::ExprNode{t.op, 0, {}, lhs, rhs});
  }
  return static_cast<std::uint32_t>(nodes.size() - 1);
}
}  // namespace

Expr expr_of(const Tree& t) {
  Expr e;
  append(t, e.nodes);
  return e;
}

Tree reg(std::string name) { return Tree{ExprOp::Reg, 0, std::move(name), {}}; }

Tree node(ExprOp op, Tree a, Tree b) {
  Tree t{op, 0, {}, {}};
  t.kids.reserve(2);
  t.kids.push_back(std::move(a));
  t.kids.push_back(std::move(b));
  return t;
}

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
