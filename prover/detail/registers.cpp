// Register values by their last assignment (docs/prover.md "Registers"). The value of r at a
// point is the value its last assignment wrote, evaluated where that assignment ran, plus a times
// every increment `r := r + a` that ran since: counters (r_l, r̂_l, native loop counters,
// thresholds bumped at a loop's tail), base and snapshot registers taken at a loop's entry or
// exit, and wait temporaries are all this one rule. Values are naturals: `-` is
// ite(a >= b, a - b, 0), `isgt` is ite(a > b, 1, 0), and a product with an isgt result becomes an
// ite (the allocator's `mask * expr` stays linear); other products are left to Z3.
#include "prover/detail/encoder.h"

#include <algorithm>

namespace syncbisim::prover::detail {

namespace {
// A chain of assignments each reading the one before (a base register summed once per member of a
// chain of reused semaphores, docs/allocator.md) is as deep as the chain: two frames a level.
constexpr int kMaxAssignmentDepth = 2048;
}  // namespace

Value Encoder::reg_value(const std::string& reg, const Point& q, int depth) {
  const auto& ix = places_.index();
  // (Per wait being read: a register may stand at a cut for its semaphore's early signals,
  // cut_value, and only in that wait.)
  const auto key = std::make_tuple(reg, threshold_wait_, q.anchor, q.back, q.stmt, q.item, q.engine);
  if (const auto hit = reg_values_.find(key); hit != reg_values_.end()) return hit->second;
  const auto what = "register " + reg + " on " + ix.engines[engine_];
  // Each level is a distinct (register, point) (values are kept below), so the depth is the
  // length of one chain of assignments; the limit keeps the recursion within the stack.
  if (depth > kMaxAssignmentDepth)
    throw Outside{what + ": assignments nested more than " + std::to_string(kMaxAssignmentDepth) + " deep"};
  const auto it = regs_.find(reg);
  if (it == regs_.end()) return {ctx_.nat(0), std::nullopt};  // never written: 0 (docs/semantics.md §4)
  const auto& writes = it->second;
  const auto cases = search_back(q, &reg, what);
  std::vector<Value> values;
  for (const auto& f : cases) {
    Value base{ctx_.nat(0), std::nullopt};
    std::optional<Point> from;  // the increments counted are those after this point
    if (const auto cut = cut_value(reg, q, f)) {
      // The value at a cut of the top level, which a cut lemma equates with a chain of signals'
      // count (cut_lemmas.h): the summary's unknown, and the increments since the cut.
      base = Value{cut->second, std::nullopt};
      from = Point{model::kTop, 0, cut->first, 0, engine_};
    } else if (f.at) {
      base = expr_value(f.def->expr, *f.at, depth + 1);
      from = *f.at;
      // Just after the assignment (inside a block), or the point after the loop it ended.
      if (f.def->at.loop == from->anchor && f.def->at.stmt == from->stmt) from->item = f.def->at.item + 1;
    }
    // The increments run between the assignment (or the cut) and q.
    std::vector<smt::Term> incs;
    // An increment in a top-level statement before `from`'s ran there in full, and one in a
    // statement after q's has not run: neither adds anything between them. Skipping them keeps a
    // register used as a counter in many loop nests (a cell shared by liveness) from naming every
    // nest's loops.
    // (The increments are kept by statement: the range is found by halving, not by a walk over
    // every nest's, which made the prover quadratic in the nests sharing a counter.)
    const auto lo = from ? top_stmt(*from) : 0, hi = top_stmt(q);
    const auto& all = writes.increments;
    const auto first = std::partition_point(all.begin(), all.end(), [&](const Increment& i) { return i.top < lo; });
    for (auto it = first; it != all.end() && it->top <= hi; ++it) {
      const auto& inc = *it;
      auto since = count(engine_, inc.write->at, q);
      if (from) since = since - count(engine_, inc.write->at, *from);
      incs.push_back(inc.add * since);
    }
    if (incs.empty()) values.push_back(base);
    else values.push_back({base.v + ctx_.sum(incs), std::nullopt});
  }
  // One value per case, selected by the cases' guards (exclusive, and together always true).
  Value out = values.back();
  for (std::size_t k = values.size() - 1; k-- > 0;) {
    const auto& g = cases[k].guard;
    std::optional<smt::Term> cond;
    if (values[k].cond && out.cond) cond = ite(g, *values[k].cond, *out.cond);
    out = Value{ite(g, values[k].v, out.v), cond};
  }
  reg_values_.emplace(key, out);
  return out;
}

Value Encoder::expr_value(const model::Expr& e, const Point& at, int depth) {
  std::vector<Value> v;
  v.reserve(e.nodes.size());
  const auto zero = ctx_.nat(0), one = ctx_.nat(1);
  for (const auto& n : e.nodes) {
    switch (n.op) {
      case model::ExprOp::Const: v.push_back({ctx_.nat(n.value), std::nullopt}); break;
      case model::ExprOp::Reg: v.push_back(reg_value(n.reg, at, depth)); break;
      case model::ExprOp::Add: v.push_back({v[n.lhs].v + v[n.rhs].v, std::nullopt}); break;
      case model::ExprOp::Sub: {
        // truncated at 0: naturals (docs/semantics.md §4)
        const auto a = v[n.lhs].v;
        const auto b = v[n.rhs].v;
        v.push_back({ite(a >= b, a - b, zero), std::nullopt});
        break;
      }
      case model::ExprOp::Mul: {
        // mask * expr: an ite, which keeps the allocator's waits in linear arithmetic.
        const auto a = v[n.lhs];
        const auto b = v[n.rhs];
        if (a.cond && b.cond) v.push_back({ite(*a.cond && *b.cond, one, zero), *a.cond && *b.cond});
        else if (a.cond) v.push_back({ite(*a.cond, b.v, zero), std::nullopt});
        else if (b.cond) v.push_back({ite(*b.cond, a.v, zero), std::nullopt});
        else v.push_back({a.v * b.v, std::nullopt});
        break;
      }
      case model::ExprOp::IsGt: {
        const auto c = v[n.lhs].v > v[n.rhs].v;
        v.push_back({ite(c, one, zero), c});
        break;
      }
    }
  }
  return v.back();
}

}  // namespace syncbisim::prover::detail
