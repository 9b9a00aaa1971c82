// Non-allocatable dependencies (paper §5.2 ends: "fall back to the barrier-based scheme"), done so
// that the barrier-free waits stay right: a barrier with an EMPTY reset list (docs/semantics.md §6:
// a barrier resetting every semaphore would destroy the monotone counts the other waits read).
//
// Let L be the outermost common loop where the distance is non-zero (S for a zero-distance
// nested-backward dependency, which owes only earlier iterations of S: docs/analysis.md). The
// target t = v - δ agrees with v above L and is smaller at L, so every producer instance the
// consumer needs lies in an earlier iteration of L (instances of p only occur inside iterations
// of L, a loop enclosing p). A barrier at the end of every iteration body of L drains every
// engine, so all of them have retired when the consumer's iteration of L begins: no wait needed.
#include "allocator/context.h"

namespace syncbisim::allocator {

void allocate_fallback(Context& ctx, const std::vector<std::size_t>& deps) {
  for (auto d : deps) {
    const auto& info = ctx.dep(d);
    model::LoopId L = info.S;
    for (std::size_t i = 0; i < info.common.size(); ++i)
      if (info.distance[i] != 0) {
        L = info.common[i];
        break;
      }
    Decision dec{d, ctx.decisions[d].label, "fallback", "", std::nullopt, ""};
    if (L == model::kTop) {
      // @top runs once: nothing before its only iteration is owed (analysis warns).
      dec.detail = "(" + info.reason + "): the target is before @top's only iteration, never binds, no wait";
    } else {
      ctx.plan.loops[L].at_end = model::Barrier{std::vector<std::string>{}, {}};
      dec.detail = "(" + info.reason + "): barrier() with no reset at the end of each iteration of " +
                   ctx.ix.loops[L].name + ", no wait";
    }
    ctx.decisions[d] = std::move(dec);
  }
}

}  // namespace syncbisim::allocator
