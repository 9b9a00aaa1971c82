#include "checker/check_result.h"

namespace syncbisim::checker {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Bisimilar: return "bisimilar";
    case Verdict::OverSynchronized: return "over-synchronized";
    case Verdict::UnderSynchronized: return "under-synchronized";
    case Verdict::SpecDeadlock: return "spec-deadlock";
    case Verdict::Inconclusive: return "inconclusive";
    case Verdict::Overflow: return "overflow";
  }
  return "?";
}

int exit_status(Verdict v) {
  switch (v) {
    case Verdict::Bisimilar: return 0;
    case Verdict::Inconclusive: return 3;
    default: return 1;
  }
}

const char* to_string(ViolationKind k) {
  switch (k) {
    case ViolationKind::UnderSync: return "under-sync";
    case ViolationKind::OverSync: return "over-sync";
    case ViolationKind::Deadlock: return "deadlock";
    case ViolationKind::Overflow: return "overflow";
  }
  return "?";
}

Verdict verdict_of(const std::vector<Violation>& vs, bool complete) {
  bool under = false, over = false, spec_dead = false, overflow = false;
  for (const auto& v : vs) {
    overflow = overflow || v.kind == ViolationKind::Overflow;
    under = under || v.kind == ViolationKind::UnderSync;
    // A deadlock of the implementation alone is over-synchronization (docs/semantics.md §5). One where
    // the spec's own search was cut is neither for sure: alone it leaves the verdict inconclusive.
    const bool dead = v.kind == ViolationKind::Deadlock && !v.spec_search_cut;
    over = over || v.kind == ViolationKind::OverSync || (dead && !v.spec_deadlocks_too);
    spec_dead = spec_dead || (dead && v.spec_deadlocks_too);
  }
  if (under) return Verdict::UnderSynchronized;
  if (over) return Verdict::OverSynchronized;
  // After the synchronization verdicts, which say more about the allocation: an overflow is a
  // wrong program on the hardware all the same (exit 1), and found by random walks too.
  if (overflow) return Verdict::Overflow;
  if (spec_dead) return Verdict::SpecDeadlock;
  return complete ? Verdict::Bisimilar : Verdict::Inconclusive;
}

void add_limit(CheckResult& r, const std::string& limit) {
  r.exhaustive = false;
  r.limit += (r.limit.empty() ? "" : ", ") + limit;
}

}  // namespace syncbisim::checker
