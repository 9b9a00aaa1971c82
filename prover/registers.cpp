#include "prover/registers.h"

#include <algorithm>

namespace syncbisim::prover {

std::optional<std::uint64_t> increment_of(const RegWrite& w) {
  const auto& n = w.expr.nodes;
  if (n.size() != 3 || n[2].op != model::ExprOp::Add) return std::nullopt;
  const auto& a = n[n[2].lhs];
  const auto& b = n[n[2].rhs];
  if (a.op == model::ExprOp::Reg && a.reg == w.dst && b.op == model::ExprOp::Const) return b.value;
  if (b.op == model::ExprOp::Reg && b.reg == w.dst && a.op == model::ExprOp::Const) return a.value;
  return std::nullopt;
}

std::map<std::string, RegisterWrites> register_writes(const Places& places, model::EngineId engine) {
  std::map<std::string, RegisterWrites> out;
  for (const auto& w : places.writes()) {
    if (w.engine != engine) continue;
    auto& r = out[w.dst];
    if (const auto a = increment_of(w)) r.increments.push_back({*a, &w, places.stmt_in(model::kTop, w.at)});
    else r.assignments.push_back(&w);
  }
  // (Tree order already; kept by `top` whatever order places.writes() is in, for the range
  // lookups of the encoder.)
  for (auto& [reg, r] : out)
    std::stable_sort(r.increments.begin(), r.increments.end(),
                     [](const Increment& a, const Increment& b) { return a.top < b.top; });
  return out;
}

}  // namespace syncbisim::prover
