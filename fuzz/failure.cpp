#include "fuzz/failure.h"

namespace syncbisim::fuzz {

std::string to_string(const Failure& f) {
  if (const auto* fault = std::get_if<AllocatorFault>(&f)) return to_string(*fault);
  const auto& v = std::get<ViolationAt>(f);
  std::string s = checker::to_string(v.kind);
  if (!v.instr.empty()) s += " at " + v.instr;
  return s + " on " + v.engine;
}

std::string failure_class(const Failure& f) {
  if (const auto* fault = std::get_if<AllocatorFault>(&f)) return to_string(*fault);
  return checker::to_string(std::get<ViolationAt>(f).kind);
}

ViolationAt failure_of(const semantics::Lockstep& both, const checker::Violation& v) {
  const auto& spec = both.spec().program();
  ViolationAt f;
  f.kind = v.kind;
  f.engine = spec.engines[v.engine];
  if (v.instr) f.instr = spec.instrs[*v.instr].name;
  return f;
}

bool counts(const checker::Violation& v, Counts policy, bool allocatable) {
  if (v.kind == checker::ViolationKind::Deadlock && v.spec_deadlocks_too) return false;  // the spec's fault (§7.5)
  if (v.kind == checker::ViolationKind::UnderSync) return true;
  switch (policy) {
    case Counts::UnderSyncOnly: return false;
    case Counts::AllOnAllocatable: return allocatable;
    case Counts::All: return true;
  }
  return false;
}

std::optional<ViolationAt> first_failure(const semantics::Lockstep& both, const checker::CheckResult& r, Counts policy,
                                         bool allocatable) {
  for (const auto& v : r.violations)
    if (v.kind == checker::ViolationKind::UnderSync) return failure_of(both, v);
  for (const auto& v : r.violations)
    if (counts(v, policy, allocatable)) return failure_of(both, v);
  return std::nullopt;
}

bool shows(const semantics::Lockstep& both, const checker::CheckResult& r, const ViolationAt& target, Counts policy,
           bool allocatable) {
  for (const auto& v : r.violations)
    if (counts(v, policy, allocatable) && failure_of(both, v) == target) return true;
  return false;
}

}  // namespace syncbisim::fuzz
