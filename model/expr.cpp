#include "model/expr.h"

#include <algorithm>

namespace syncbisim::model {

Expr Expr::constant(std::uint64_t v) {
  Expr e;
  e.nodes.push_back(ExprNode{ExprOp::Const, v, {}, 0, 0});
  return e;
}

Expr Expr::reg(std::string name) {
  Expr e;
  e.nodes.push_back(ExprNode{ExprOp::Reg, 0, std::move(name), 0, 0});
  return e;
}

Expr Expr::binary(ExprOp op, const Expr& a, const Expr& b) {
  Expr e;
  e.nodes.reserve(a.nodes.size() + b.nodes.size() + 1);  // one allocation, no node moved twice
  e.nodes.insert(e.nodes.end(), a.nodes.begin(), a.nodes.end());
  const auto lhs = static_cast<std::uint32_t>(e.nodes.size() - 1);
  const auto shift = static_cast<std::uint32_t>(e.nodes.size());
  for (ExprNode n : b.nodes) {
    if (n.op != ExprOp::Const && n.op != ExprOp::Reg) {
      n.lhs += shift;
      n.rhs += shift;
    }
    e.nodes.push_back(std::move(n));
  }
  const auto rhs = static_cast<std::uint32_t>(e.nodes.size() - 1);
  e.nodes.push_back(ExprNode{op, 0, {}, lhs, rhs});
  return e;
}

std::uint32_t Expr::alu_cost() const {
  return static_cast<std::uint32_t>(std::count_if(
      nodes.begin(), nodes.end(), [](const ExprNode& n) { return n.op != ExprOp::Const && n.op != ExprOp::Reg; }));
}

std::vector<std::string> Expr::registers() const {
  std::vector<std::string> out;
  for (const auto& n : nodes)
    if (n.op == ExprOp::Reg && std::find(out.begin(), out.end(), n.reg) == out.end()) out.push_back(n.reg);
  return out;
}

std::optional<std::uint64_t> Expr::eval(const std::function<std::uint64_t(const std::string&)>& read) const {
  std::vector<std::uint64_t> val(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    switch (n.op) {
      case ExprOp::Const: val[i] = n.value; break;
      case ExprOp::Reg: val[i] = read(n.reg); break;
      default:
        if (!apply_op(n.op, val[n.lhs], val[n.rhs], val[i])) return std::nullopt;
    }
  }
  return val.empty() ? 0 : val.back();
}

int precedence(ExprOp op) {
  switch (op) {
    case ExprOp::Add:
    case ExprOp::Sub: return 1;
    case ExprOp::Mul: return 2;
    default: return 3;  // atoms and calls
  }
}

namespace {

std::string render(const std::vector<ExprNode>& nodes, std::uint32_t i) {
  const auto& n = nodes[i];
  switch (n.op) {
    case ExprOp::Const: return std::to_string(n.value);
    case ExprOp::Reg: return n.reg;
    case ExprOp::IsGt: return "isgt(" + render(nodes, n.lhs) + ", " + render(nodes, n.rhs) + ")";
    default: break;
  }
  const int p = precedence(n.op);
  std::string l = render(nodes, n.lhs), r = render(nodes, n.rhs);
  // Left-associative operators: a left operand of equal precedence needs no parentheses,
  // a right one does ("a - (b - c)").
  if (precedence(nodes[n.lhs].op) < p) l = "(" + l + ")";
  if (precedence(nodes[n.rhs].op) <= p) r = "(" + r + ")";
  const char* sym = n.op == ExprOp::Add ? " + " : n.op == ExprOp::Sub ? " - " : " * ";
  return l + sym + r;
}
}  // namespace

std::string Expr::to_string() const {
  if (nodes.empty()) return "0";
  return render(nodes, static_cast<std::uint32_t>(nodes.size() - 1));
}

}  // namespace syncbisim::model
