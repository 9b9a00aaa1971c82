#include "model/footprint.h"

#include <algorithm>

namespace syncbisim::model {

IndexExpr IndexExpr::constant(std::int64_t v) {
  IndexExpr e;
  e.nodes.push_back(IndexNode{IndexOp::Const, v, {}, 0, 0});
  return e;
}

IndexExpr IndexExpr::loop(std::string name) {
  IndexExpr e;
  e.nodes.push_back(IndexNode{IndexOp::Loop, 0, std::move(name), 0, 0});
  return e;
}

namespace {
// Appends b's nodes to e, shifting its operand indices; returns the index of b's root.
std::uint32_t append(IndexExpr& e, const IndexExpr& b) {
  const auto shift = static_cast<std::uint32_t>(e.nodes.size());
  for (IndexNode n : b.nodes) {
    if (n.op != IndexOp::Const && n.op != IndexOp::Loop) {
      n.lhs += shift;
      n.rhs += shift;
    }
    e.nodes.push_back(std::move(n));
  }
  return static_cast<std::uint32_t>(e.nodes.size() - 1);
}
}  // namespace

IndexExpr IndexExpr::binary(IndexOp op, const IndexExpr& a, const IndexExpr& b) {
  IndexExpr e;
  const auto lhs = append(e, a);
  const auto rhs = append(e, b);
  e.nodes.push_back(IndexNode{op, 0, {}, lhs, rhs});
  return e;
}

IndexExpr IndexExpr::negate(const IndexExpr& a) {
  IndexExpr e;
  const auto lhs = append(e, a);
  e.nodes.push_back(IndexNode{IndexOp::Neg, 0, {}, lhs, lhs});
  return e;
}

std::vector<std::string> IndexExpr::loops() const {
  std::vector<std::string> out;
  for (const auto& n : nodes)
    if (n.op == IndexOp::Loop && std::find(out.begin(), out.end(), n.loop) == out.end()) out.push_back(n.loop);
  return out;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

std::optional<std::int64_t> IndexExpr::eval(const std::function<std::int64_t(const std::string&)>& iter) const {
  // Values stay far inside 64 bits (shapes and trips are at most 2^32): a value past 2^62 means
  // an index no buffer has, reported as such rather than wrapped.
  constexpr std::int64_t kLimit = std::int64_t{1} << 62;
  std::vector<std::int64_t> v(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    std::int64_t r = 0;
    switch (n.op) {
      case IndexOp::Const: r = n.value; break;
      case IndexOp::Loop: r = iter(n.loop); break;
      case IndexOp::Neg: r = -v[n.lhs]; break;
      case IndexOp::Add:
        if (__builtin_add_overflow(v[n.lhs], v[n.rhs], &r)) return std::nullopt;
        break;
      case IndexOp::Sub:
        if (__builtin_sub_overflow(v[n.lhs], v[n.rhs], &r)) return std::nullopt;
        break;
      case IndexOp::Mul:
        if (__builtin_mul_overflow(v[n.lhs], v[n.rhs], &r)) return std::nullopt;
        break;
      case IndexOp::Mod:
        if (v[n.rhs] <= 0) return std::nullopt;
        r = floor_mod(v[n.lhs], v[n.rhs]);
        break;
      case IndexOp::FloorDiv:
        if (v[n.rhs] <= 0) return std::nullopt;
        r = floor_div(v[n.lhs], v[n.rhs]);
        break;
    }
    if (r > kLimit || r < -kLimit) return std::nullopt;
    v[i] = r;
  }
  return v.empty() ? 0 : v.back();
}

std::optional<std::int64_t> IndexExpr::constant_value() const {
  for (const auto& n : nodes)
    if (n.op == IndexOp::Loop) return std::nullopt;
  return eval([](const std::string&) { return std::int64_t{0}; });
}

namespace {
// + and - bind at 1, * mod // at 2, unary minus at 3, atoms at 4.
int prec(IndexOp op) {
  switch (op) {
    case IndexOp::Add:
    case IndexOp::Sub: return 1;
    case IndexOp::Mul:
    case IndexOp::Mod:
    case IndexOp::FloorDiv: return 2;
    case IndexOp::Neg: return 3;
    default: return 4;
  }
}

std::string print(const IndexExpr& e, std::uint32_t i) {
  const auto& n = e.nodes[i];
  switch (n.op) {
    case IndexOp::Const: return std::to_string(n.value);
    case IndexOp::Loop: return n.loop;
    case IndexOp::Neg: {
      const auto inner = print(e, n.lhs);
      return prec(e.nodes[n.lhs].op) < 4 || e.nodes[n.lhs].op == IndexOp::Const ? "-(" + inner + ")" : "-" + inner;
    }
    default: break;
  }
  const int p = prec(n.op);
  // Left-associative: the left operand needs parentheses only when it binds looser, the right
  // one also when it binds equally (a - (b - c)).
  auto l = print(e, n.lhs), r = print(e, n.rhs);
  if (prec(e.nodes[n.lhs].op) < p) l = "(" + l + ")";
  if (prec(e.nodes[n.rhs].op) <= p) r = "(" + r + ")";
  const char* op = n.op == IndexOp::Add ? " + " : n.op == IndexOp::Sub ? " - " : n.op == IndexOp::Mul ? "*"
                 : n.op == IndexOp::Mod ? " mod " : " // ";
  return l + op + r;
}
}  // namespace

std::string IndexExpr::to_string() const {
  if (nodes.empty()) return "0";
  return print(*this, static_cast<std::uint32_t>(nodes.size() - 1));
}

std::string to_string(const Subscript& s) {
  if (const auto* p = std::get_if<IndexPoint>(&s)) return p->at.to_string();
  if (std::holds_alternative<AnyIndex>(s)) return "?";
  const auto& r = std::get<IndexRange>(s);
  if (!r.lo && !r.hi) return ":";
  std::string out = r.lo ? r.lo->to_string() + " " : "";
  out += ":";
  if (r.hi) out += " " + r.hi->to_string();
  return out;
}

std::string Access::to_string() const {
  std::string out = buffer + "[";
  for (std::size_t i = 0; i < index.size(); ++i) out += (i ? ", " : "") + model::to_string(index[i]);
  return out + "]";
}

const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Read: return "reads";
    case AccessKind::Write: return "writes";
    default: return "accumulates";
  }
}

const std::vector<Access>& Footprint::of(AccessKind k) const {
  return k == AccessKind::Read ? reads : k == AccessKind::Write ? writes : accumulates;
}
std::vector<Access>& Footprint::of(AccessKind k) {
  return k == AccessKind::Read ? reads : k == AccessKind::Write ? writes : accumulates;
}

const char* to_string(Memory m) {
  switch (m) {
    case Memory::Hbm: return "hbm";
    case Memory::Sbuf: return "sbuf";
    default: return "psum";
  }
}

std::optional<Memory> memory_named(const std::string& s) {
  if (s == "hbm") return Memory::Hbm;
  if (s == "sbuf") return Memory::Sbuf;
  if (s == "psum") return Memory::Psum;
  return std::nullopt;
}

}  // namespace syncbisim::model
