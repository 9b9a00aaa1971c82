#include "prover/counters.h"

#include <vector>

namespace syncbisim::prover {

namespace {

// `r := r + a` or `r := a + r` with a constant a.
std::optional<std::uint64_t> increment_of(const RegWrite& w) {
  const auto& n = w.expr.nodes;
  if (n.size() != 3 || n[2].op != model::ExprOp::Add) return std::nullopt;
  const auto& a = n[n[2].lhs];
  const auto& b = n[n[2].rhs];
  if (a.op == model::ExprOp::Reg && a.reg == w.dst && b.op == model::ExprOp::Const) return b.value;
  if (b.op == model::ExprOp::Reg && b.reg == w.dst && a.op == model::ExprOp::Const) return a.value;
  return std::nullopt;
}

}  // namespace

CounterScan scan_counters(const Places& places, model::EngineId engine) {
  std::map<std::string, std::vector<const RegWrite*>> by_reg;
  for (const auto& w : places.writes())
    if (w.engine == engine) by_reg[w.dst].push_back(&w);
  CounterScan out;
  for (const auto& [reg, ws] : by_reg) {
    const RegWrite* inc = nullptr;
    const RegWrite* set = nullptr;
    std::string why;
    for (const auto* w : ws) {
      if (increment_of(*w)) {
        if (inc) why = "incremented at two places";
        inc = w;
      } else if (w->expr.is_constant()) {
        if (set) why = "assigned a constant at two places";
        set = w;
      } else {
        why = "written as " + w->expr.to_string();
      }
    }
    if (why.empty() && !inc) why = "never incremented";
    Counter c;
    if (why.empty()) {
      c.loop = inc->at.loop;
      c.inc = inc->at;
      c.add = *increment_of(*inc);
      if (set) {
        // The assignment must reset the count once per iteration of a strict ancestor, before
        // the loop is entered in that iteration: then every increment since it is an entry of
        // the loop during the current iteration of the ancestor.
        const auto a = set->at.loop;
        if (a == c.loop || !places.index().encloses(a, c.loop))
          why = "assigned in a loop that does not enclose its increment";
        else if (set->at.stmt >= places.stmt_in(a, c.loop)) why = "assigned after the loop that increments it";
        c.reset_loop = a;
        c.reset = set->at;
        c.init = set->expr.nodes[0].value;
      }
    }
    if (why.empty()) out.counters.emplace(reg, c);
    else out.why_not.emplace(reg, why);
  }
  return out;
}

}  // namespace syncbisim::prover
