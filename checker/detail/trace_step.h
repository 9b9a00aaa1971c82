#pragma once
// Internal to the explorers: the step of a trace from a parent to its child, found again by trying
// the parent's steps in the search's order (only parents are stored). A range trip's choices may
// number 2^32 (semantics/steps.h); trying them one by one would take hours, so a long run of
// choices tries first the one value that can lead to the child: the trip the child's engine
// holds for that loop. Settling after the choice cannot start that loop again (its next trip
// would need a choice of its own), so the child keeps it; distinct values give distinct
// children, so no other value of the run can be the one. Should the value not lead there, the
// run is tried whole, as before.
#include <cstdint>
#include <optional>

#include "semantics/lockstep.h"

namespace syncbisim::checker::detail {

// `leads_to(successor)`: is this the child? `child` is the child decoded.
template <class LeadsTo>
std::optional<semantics::Step> first_step_to(const semantics::Lockstep& both, const semantics::LockstepState& parent,
                                             const semantics::Steps& steps, const semantics::LockstepState& child,
                                             LeadsTo leads_to) {
  constexpr std::uint64_t kTryWhole = 64;  // runs this short are tried value by value
  auto tries = [&](const semantics::Step& st) {
    auto succ = parent;
    both.apply(succ, st);
    return leads_to(succ);
  };
  for (const auto& run : steps.runs()) {
    const auto& first = run.first;
    if (run.count() > kTryWhole && first.kind == semantics::StepKind::Choose &&
        both.spec().program().loops[first.aux].kind == model::LoopKind::Loop) {
      const std::uint32_t v = child.spec.control.engines[first.engine].frames[first.aux].trip;
      if (v >= first.arg && v - first.arg < run.count()) {
        const semantics::Step st{semantics::StepKind::Choose, first.engine, v, first.aux};
        if (tries(st)) return st;
      }
    }
    for (std::uint64_t i = 0; i < run.count(); ++i) {
      semantics::Step st = first;
      st.arg += static_cast<std::uint32_t>(i);
      if (tries(st)) return st;
    }
  }
  return std::nullopt;
}

}  // namespace syncbisim::checker::detail
