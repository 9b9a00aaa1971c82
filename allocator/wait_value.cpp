#include "allocator/wait_value.h"

#include "allocator/draft.h"
#include "allocator/expr_build.h"
#include "allocator/target_count.h"

namespace syncbisim::allocator {

model::Expr WaitValue::threshold() const { return mask ? mul(*mask, count) : count; }

model::Expr wait_expr(const Registers& regs, const analysis::DependencyInfo& d) {
  const auto r = regs.r(d.P);
  return d.cls == analysis::DepClass::ProducerInS ? sub(r, num(d.offset)) : r;
}

std::optional<model::Expr> mask(const Registers& regs, model::LoopId S, std::uint32_t k) {
  // @top runs once: rh_@top would be 1 at every issue, so the mask is the constant isgt(1, k).
  if (S == model::kTop) return num(k < 1 ? 1 : 0);
  if (!regs.has_trip_register(S)) return std::nullopt;  // paper §5.1: rh_S elided, all k = 0
  return isgt(regs.rh(S), num(k));
}

WaitValue masked(const Registers& regs, const analysis::DependencyInfo& d, const model::Expr& count) {
  return WaitValue{mask(regs, d.S, d.offset), count};
}

DepCount dep_count(const SpecFacts& facts, Registers& regs, const analysis::DependencyInfo& d) {
  if (d.allocatable()) return DepCount{masked(regs, d, wait_expr(regs, d)), true, false, ""};
  auto t = target_count(facts, regs, d);
  return DepCount{WaitValue{t.mask, t.count}, t.exact(), t.form == TargetCount::Form::NeverBinds, t.how};
}

std::optional<DepCount> binding_count(const SpecFacts& facts, Draft& draft, std::size_t dep) {
  auto count = dep_count(facts, draft.registers(), facts.dep(dep));
  if (!count.never_binds) return count;
  draft.decide(dep, Scheme::NoWait, "", std::nullopt, count.how);
  return std::nullopt;
}

}  // namespace syncbisim::allocator
