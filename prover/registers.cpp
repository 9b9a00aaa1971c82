#include "prover/registers.h"

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
    if (const auto a = increment_of(w)) r.increments.push_back({*a, &w});
    else r.assignments.push_back(&w);
  }
  return out;
}

}  // namespace syncbisim::prover
