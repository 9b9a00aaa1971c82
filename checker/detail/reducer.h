#pragma once
// Internal to the explorer: which step may stand for all the steps of a state.
#include <cstdint>
#include <vector>

#include "semantics/lockstep.h"

namespace syncbisim::checker::detail {

// Which steps may be taken alone (the reductions of docs/checker.md).
class Reducer {
 public:
  explicit Reducer(const semantics::Lockstep& both) {
    const auto& impl = both.impl().program();
    const auto& spec = both.spec().program();
    std::vector<std::uint8_t> resettable(impl.semaphores.size(), 0);
    for (const auto& b : impl.barriers) {
      if (b.reset_all) std::fill(resettable.begin(), resettable.end(), 1);
      for (auto s : b.reset) resettable[s] = 1;
    }
    // Issue is monotone for an instruction whose wait semaphores never go down: once both sides
    // may issue it they stay able to until the engine moves.
    monotone_issue_.assign(impl.instrs.size(), 1);
    for (semantics::InstrId i = 0; i < impl.instrs.size(); ++i)
      for (const auto& w : impl.instrs[i].waits)
        if (resettable[w.sem]) monotone_issue_[i] = 0;
    // A retirement is unobserved when no dependency reads its count and it signals nothing.
    unobserved_retire_.assign(impl.instrs.size(), 1);
    for (semantics::InstrId i = 0; i < impl.instrs.size(); ++i)
      if (impl.instrs[i].has_signal) unobserved_retire_[i] = 0;
    for (const auto& d : spec.deps) unobserved_retire_[d.producer] = 0;
  }

  // A step that may stand for all of `steps`, if there is one.
  const semantics::Step* eager(const std::vector<semantics::Step>& steps) const {
    for (const auto& st : steps) {
      if (st.kind == semantics::StepKind::Issue && monotone_issue_[st.arg]) return &st;
      if (st.kind == semantics::StepKind::Retire && unobserved_retire_[st.arg]) return &st;
    }
    return nullptr;
  }

 private:
  std::vector<std::uint8_t> monotone_issue_;
  std::vector<std::uint8_t> unobserved_retire_;
};

}  // namespace syncbisim::checker::detail
