// The implementation side (docs/prover.md "Impl side"): registers by symbolic execution of
// the consumer engine's register operations, semaphores as sums of retirement counts.
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

z3::expr Encoder::counter_value(const std::string& reg, const Counter& c, const Place& at) {
  const auto& loops = places.index().loops;
  const auto A = c.reset_loop;
  if (!on_path(A))
    throw Outside{"register " + reg + ": assigned in loop " + loops[A].name + ", which does not enclose the use"};
  if (c.reset && places.order_in(A, *c.reset, at) != Order::Before)
    throw Outside{"register " + reg + ": assigned after the use in the body of " + loops[A].name};
  // Since the last assignment (in this iteration of A, before the loop's statement) the
  // increment ran once per entry of c.loop during this iteration of A, except in the current
  // iteration of c.loop if the use comes before the increment.
  z3::expr incs = N(c.loop, A);
  if (on_path(c.loop) && places.order_in(c.loop, c.inc, at) != Order::Before) incs = incs - 1;
  return ctx.int_val(static_cast<std::uint64_t>(c.init)) + ctx.int_val(static_cast<std::uint64_t>(c.add)) * incs;
}

Value Encoder::reg_value(const std::string& reg, const Place& at, int depth) {
  if (depth > 64) throw Outside{"register " + reg + ": temporaries nested too deep"};
  if (auto it = counters_.counters.find(reg); it != counters_.counters.end())
    return {counter_value(reg, it->second, at), std::nullopt};
  // A temporary: its last write earlier in the same straight-line stream, substituted.
  const RegWrite* last = nullptr;
  bool written = false;
  for (const auto& w : places.writes()) {
    if (w.engine != engine || w.dst != reg) continue;
    written = true;
    if (w.at.loop == at.loop && w.at.stmt == at.stmt && w.at.item < at.item && (!last || last->at.item < w.at.item))
      last = &w;
  }
  if (!written) return {ctx.int_val(0), std::nullopt};  // registers start at 0 (docs/semantics.md §4)
  if (!last) {
    const auto why = counters_.why_not.count(reg) ? counters_.why_not.at(reg) : std::string("not a counter");
    throw Outside{"register " + reg + " on " + places.index().engines[engine] + ": " + why +
                  ", and not written earlier in the region of its use"};
  }
  return expr_value(last->expr, last->at, depth + 1);
}

Value Encoder::expr_value(const model::Expr& e, const Place& at, int depth) {
  std::vector<Value> v;
  v.reserve(e.nodes.size());
  const auto zero = ctx.int_val(0), one = ctx.int_val(1);
  for (const auto& n : e.nodes) {
    switch (n.op) {
      case model::ExprOp::Const: v.push_back({ctx.int_val(static_cast<std::uint64_t>(n.value)), std::nullopt}); break;
      case model::ExprOp::Reg: v.push_back(reg_value(n.reg, at, depth)); break;
      case model::ExprOp::Add: v.push_back({v[n.lhs].v + v[n.rhs].v, std::nullopt}); break;
      case model::ExprOp::Sub: {
        // truncated at 0: naturals (docs/semantics.md §4)
        const auto& a = v[n.lhs].v;
        const auto& b = v[n.rhs].v;
        v.push_back({z3::ite(a >= b, a - b, zero), std::nullopt});
        break;
      }
      case model::ExprOp::Mul: {
        // mask * expr: an ite, which keeps the allocator's waits in linear arithmetic.
        const auto& a = v[n.lhs];
        const auto& b = v[n.rhs];
        if (a.cond && b.cond) v.push_back({z3::ite(*a.cond && *b.cond, one, zero), *a.cond && *b.cond});
        else if (a.cond) v.push_back({z3::ite(*a.cond, b.v, zero), std::nullopt});
        else if (b.cond) v.push_back({z3::ite(*b.cond, a.v, zero), std::nullopt});
        else v.push_back({a.v * b.v, std::nullopt});
        break;
      }
      case model::ExprOp::IsGt: {
        const auto c = v[n.lhs].v > v[n.rhs].v;
        v.push_back({z3::ite(c, one, zero), c});
        break;
      }
    }
  }
  return v.back();
}

z3::expr Encoder::waits_hold() {
  z3::expr all = ctx.bool_val(true);
  const auto& ix = places.index();
  for (const auto& w : places.instr(consumer).waits) {
    // Barriers are outside the fragment, so a semaphore is exactly the sum of its signals.
    z3::expr sem = ctx.int_val(0);
    for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
      const auto& s = places.instr(i).signal;
      if (s && s->sem == w.sem) sem = sem + ctx.int_val(static_cast<unsigned>(s->add)) * R(i);
    }
    z3::expr thr = std::holds_alternative<std::uint64_t>(w.ge)
                       ? ctx.int_val(static_cast<std::uint64_t>(std::get<std::uint64_t>(w.ge)))
                       : reg_value(std::get<std::string>(w.ge), point, 0).v;
    all = all && sem >= thr;
  }
  return all;
}

}  // namespace syncbisim::prover::detail
