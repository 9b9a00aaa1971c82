// paper §5.3: one semaphore per producer, +1 at its retirement, so s_p = R(p) and the wait is
// s_p >= isgt(rh_S, k) * expr (eq. (3)).
#include "allocator/context.h"
#include "allocator/wait_value.h"

namespace syncbisim::allocator {

void allocate_per_instruction(Context& ctx, const std::vector<std::size_t>& deps) {
  std::vector<std::string> sem_of(ctx.ix.instrs.size());
  for (auto d : deps) {
    const auto& info = ctx.dep(d);
    auto& sem = sem_of[info.producer];
    if (sem.empty()) {
      sem = ctx.semaphore("s_", ctx.ix.instrs[info.producer].name);
      ctx.plan.instrs[info.producer].signal = model::Signal{sem, 1};
    }
    const auto value = masked(ctx, info, wait_expr(ctx, info));
    ctx.add_wait(info.consumer, sem, value);
    ctx.decisions[d] = Decision{d, ctx.decisions[d].label, "per-instruction", sem, value, ""};
  }
}

}  // namespace syncbisim::allocator
