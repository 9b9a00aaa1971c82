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
#include <vector>

#include "semantics/lockstep.h"
#include "semantics/small_vec.h"
#include "statespace/part_table.h"
#include "statespace/state_codec.h"

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

// The steps along `path`, the ids of stored states from the initial state to the one a trace
// ends at, each the first step (as above) from one state to the next. A state id's tuple of part
// ids in `parts` is `tuple_of(id)`; the exhaustive and the threaded search store them apart.
template <class TupleOf>
std::vector<semantics::Step> trace_along(const semantics::Lockstep& both, const statespace::StateCodec& codec,
                                         const statespace::PartTable& parts, const std::vector<std::uint32_t>& path,
                                         TupleOf tuple_of) {
  std::vector<statespace::PartWords> words(codec.parts());
  auto decode = [&](std::uint32_t id) {
    const std::uint32_t* tuple = tuple_of(id);
    semantics::SmallVec<const std::uint32_t*, 8> ptrs(codec.parts());
    for (std::size_t i = 0; i < ptrs.size(); ++i) {
      parts.read(tuple[i], words[i]);
      ptrs[i] = words[i].data();
    }
    semantics::LockstepState s = codec.blank();
    codec.decode(ptrs, s);
    return s;
  };
  std::vector<semantics::Step> out;
  semantics::Steps steps;
  statespace::PartWords encoded, want;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const auto s = decode(path[k]);
    const auto child_state = decode(path[k + 1]);
    const std::uint32_t* child = tuple_of(path[k + 1]);
    steps.clear();
    both.visible(s, steps);
    const auto st = first_step_to(both, s, steps, child_state, [&](const semantics::LockstepState& succ) {
      for (std::size_t i = 0; i < codec.parts(); ++i) {
        codec.encode_part(succ, i, encoded);
        parts.read(child[i], want);
        if (!(encoded == want)) return false;
      }
      return true;
    });
    if (st) out.push_back(*st);
  }
  return out;
}

}  // namespace syncbisim::checker::detail
