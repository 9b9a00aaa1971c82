#include "allocator/context.h"

#include "allocator/expr_build.h"

namespace syncbisim::allocator {

std::string dep_label(const model::Dependency& d) {
  std::string s = d.producer + " -> " + d.consumer + " {";
  bool first = true;
  for (const auto& [loop, k] : d.distance) {
    if (k == 0) continue;
    s += (first ? "" : ", ") + loop + ": " + std::to_string(k);
    first = false;
  }
  return s + "}";
}

std::string Decision::to_string() const {
  std::string s = label + ": " + scheme;
  if (!semaphore.empty()) s += " " + semaphore;
  if (!detail.empty()) s += " " + detail;
  if (wait) s += ", wait " + semaphore + " >= " + wait->to_string();
  return s;
}

void Context::add_wait(model::InstrId consumer, const std::string& sem, const model::Expr& value) {
  auto& ip = plan.instrs[consumer];
  if (value.is_constant()) {
    ip.waits.push_back(model::Wait{sem, value.nodes[0].value});
    return;
  }
  // Temporaries are per engine and live only from here to the issue: w, w2, w3 for the
  // first, second, third wait of one consumer. Loop registers start with r_ / rh_, so no clash.
  const std::string w = ip.pre.empty() ? "w" : "w" + std::to_string(ip.pre.size() + 1);
  ip.pre.push_back(model::RegOp{w, value, {}});
  ip.waits.push_back(model::Wait{sem, w});
}

std::optional<model::Expr> Context::mask(model::LoopId S, std::uint32_t k, model::EngineId e) {
  // @top runs once: rh_@top would be 1 at every issue, so the mask is the constant isgt(1, k).
  if (S == model::kTop) return num(k < 1 ? 1 : 0);
  if (!regs.has_trip_register(S)) return std::nullopt;  // paper §5.1: rh_S elided, all k = 0
  return isgt(regs.rh(S, e), num(k));
}

}  // namespace syncbisim::allocator
