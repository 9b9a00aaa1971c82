#include "statespace/detail/reducer.h"

#include <algorithm>

namespace syncbisim::statespace::detail {

using semantics::Op;
using semantics::OpKind;

namespace {

// Per pc of one engine's code: can the engine get from there to a barrier through register
// operations and loop control alone? Every way a loop head may go (into the body or past the
// loop, whatever the trip) counts, so the answer holds for every trip count. The least fixpoint
// of the equations below, found by iterating from "no" everywhere (loops make the code cyclic).
std::vector<std::uint8_t> barrier_before_issue(const std::vector<Op>& code) {
  std::vector<std::uint8_t> reach(code.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t pc = code.size(); pc-- > 0;) {
      if (reach[pc]) continue;
      const Op& op = code[pc];
      bool r = false;
      switch (op.kind) {
        case OpKind::Barrier: r = true; break;
        case OpKind::RegOp: r = reach[pc + 1] != 0; break;
        case OpKind::LoopHead: r = reach[pc + 1] != 0 || reach[op.b] != 0; break;  // the body, or past the loop
        case OpKind::LoopBack: r = reach[op.b] != 0; break;                        // the head
        case OpKind::Instr:
        case OpKind::End: break;  // an issue comes first, or nothing does
      }
      if (r) {
        reach[pc] = 1;
        changed = true;
      }
    }
  }
  return reach;
}

}  // namespace

Reducer::Reducer(const semantics::Lockstep& both) {
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
  for (const auto& code : impl.code) barrier_before_issue_.push_back(barrier_before_issue(code));
}

}  // namespace syncbisim::statespace::detail
