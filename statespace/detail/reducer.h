#pragma once
// Internal to the expander (statespace/expander.h): which step may stand for all the steps of a state (the reductions
// of docs/checker.md, "Reductions", which argues each condition below).
#include <cstdint>
#include <vector>

#include "semantics/lockstep.h"

namespace syncbisim::statespace::detail {

class Reducer {
 public:
  explicit Reducer(const semantics::Lockstep& both);

  // A step that may stand for all of `steps`, the visible steps of the settled state `s`, if
  // there is one.
  const semantics::Step* eager(const semantics::LockstepState& s, const semantics::Steps& steps) const {
    for (const auto& run : steps.runs()) {  // an issue or a retirement is a run of one
      const auto& st = run.first;
      if (st.kind == semantics::StepKind::Issue && monotone_issue_[st.arg]) return &st;
      if (st.kind == semantics::StepKind::Retire && unobserved_retire_[st.arg] && !may_arrive(s, st.engine)) return &st;
    }
    return nullptr;
  }

  // Could retiring engine e's in-flight head, now or after e has moved on by control steps alone,
  // be what lets e arrive at a barrier? Then the retirement decides which engine arrives last,
  // and so which states exist before the release: it is not taken alone (docs/checker.md).
  bool may_arrive(const semantics::LockstepState& s, semantics::EngineId e) const {
    const auto& ec = s.impl.control.engines[e];
    return ec.inflight.size() == 1 && barrier_before_issue_[e][ec.pc];
  }

 private:
  std::vector<std::uint8_t> monotone_issue_;     // by instruction
  std::vector<std::uint8_t> unobserved_retire_;  // by instruction
  // Per engine, per pc of its impl code: a barrier can be reached from there through register
  // operations and loop control alone, before any instruction.
  std::vector<std::vector<std::uint8_t>> barrier_before_issue_;
};

}  // namespace syncbisim::statespace::detail
