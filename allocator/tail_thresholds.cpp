#include "allocator/tail_thresholds.h"

#include <map>
#include <tuple>

#include "allocator/expr_build.h"

namespace syncbisim::allocator {

namespace {

model::Expr rebuild(const model::Expr& x, std::uint32_t n, const std::set<std::string>& bumped) {
  const auto& node = x.nodes[n];
  switch (node.op) {
    case model::ExprOp::Const: return num(node.value);
    case model::ExprOp::Reg:
      return bumped.count(node.reg) ? add(model::Expr::reg(node.reg), num(1)) : model::Expr::reg(node.reg);
    default: break;
  }
  // A bumped register against a constant c folds the + 1 into c, on the naturals:
  // isgt(r + 1, c) = isgt(r, c - 1) (1 for c = 0) and (r + 1) - c = r - (c - 1) for c >= 1.
  const auto& a = x.nodes[node.lhs];
  const auto& b = x.nodes[node.rhs];
  if (a.op == model::ExprOp::Reg && bumped.count(a.reg) && b.op == model::ExprOp::Const) {
    const auto r = model::Expr::reg(a.reg);
    if (node.op == model::ExprOp::IsGt) return b.value == 0 ? num(1) : isgt(r, num(b.value - 1));
    if (node.op == model::ExprOp::Sub && b.value >= 1) return sub(r, num(b.value - 1));
  }
  const auto l = rebuild(x, node.lhs, bumped), rr = rebuild(x, node.rhs, bumped);
  switch (node.op) {
    case model::ExprOp::Add: return add(l, rr);
    case model::ExprOp::Sub: return sub(l, rr);
    case model::ExprOp::Mul: return mul(l, rr);
    default: return isgt(l, rr);
  }
}

enum class Fit : std::uint8_t { Invariant, Varies, No };

// How threshold `x` of consumer `c` relates to loop L (tail_thresholds.h).
Fit fit(const SpecFacts& facts, const Registers& regs, model::InstrId c, model::LoopId L, const model::Expr& x) {
  const auto& ix = facts.ix;
  bool varies = false;
  for (const auto& name : x.registers()) {
    const auto l = regs.written_by(name);
    if (!l) return Fit::No;  // a temporary: written anywhere
    if (*l == L) {
      if (name != regs.r_name(L) && name != regs.rh_name(L)) return Fit::No;  // a ring on L moves at L's top
      varies = true;
    } else if (ix.encloses(L, *l)) {
      varies = true;
      // Written inside L: only loops whose statement in L's body comes after c's run between c and
      // the end of the iteration, never between the end and c in the next iteration.
      if (facts.counts.stmt_in(ix, *l, L) <= facts.counts.instr_stmt_in(ix, c, L)) return Fit::No;
    }
    // Around L or outside it: not written during L's statement.
  }
  return varies ? Fit::Varies : Fit::Invariant;
}

}  // namespace

model::Expr next_iteration(const model::Expr& x, const std::set<std::string>& bumped) {
  return rebuild(x, static_cast<std::uint32_t>(x.nodes.size() - 1), bumped);
}

std::size_t tail_thresholds(const SpecFacts& facts, const Registers& regs, NameTable& names, Plan& plan) {
  const auto& ix = facts.ix;
  std::map<std::tuple<model::LoopId, model::EngineId, std::string>, std::string> shared;
  std::size_t made = 0;
  for (model::InstrId c = 0; c < ix.instrs.size(); ++c) {
    const auto e = ix.instrs[c].engine;
    for (auto& w : plan.instrs[c].wanted) {
      if (w.threshold.alu_cost() == 0) continue;  // a constant or one register: waited on as it is
      std::optional<model::LoopId> at;
      for (auto L = ix.instrs[c].parent; L != model::kTop; L = ix.loops[L].parent) {
        const auto f = fit(facts, regs, c, L, w.threshold);
        if (f == Fit::Invariant) continue;  // LICM's case, or an outer loop's
        // A cond's branch runs at most once per statement: no iteration to come.
        if (f == Fit::Varies && ix.loops[L].kind == model::LoopKind::Loop) at = L;
        break;  // an outer loop would hold the varying register in c's own statement
      }
      if (!at) continue;
      const auto next = next_iteration(w.threshold, {regs.r_name(*at), regs.rh_name(*at)});
      const auto key = std::make_tuple(*at, e, next.to_string());
      auto it = shared.find(key);
      if (it == shared.end()) {
        const auto name = names.fresh("t_", ix.loops[*at].name);
        it = shared.emplace(key, name).first;
        plan.loops[*at].hoisted[e].push_back(model::RegOp{name, next, {}});
        plan.loops[*at].tail[e].push_back(model::RegOp{name, next, {}});
        plan.direct.insert(name);
        ++made;
      }
      w.threshold = model::Expr::reg(it->second);
    }
  }
  return made;
}

}  // namespace syncbisim::allocator
