// paper §5.4-5.5: one semaphore per (loop, engine) pair, shared by the N instructions of that
// engine directly in the loop body; the producer is the K-th of them.
#include "allocator/context.h"
#include "allocator/expr_build.h"
#include "allocator/wait_value.h"

namespace syncbisim::allocator {

const std::string& loop_semaphore(Context& ctx, model::LoopId l, model::EngineId e) {
  const auto key = std::make_pair(l, e);
  if (auto it = ctx.loop_sems.find(key); it != ctx.loop_sems.end()) return it->second;
  const auto& name = ctx.loop_sems[key] = ctx.semaphore("s_", ctx.ix.loops[l].name + "_" + ctx.ix.engines[e]);
  for (model::InstrId i = 0; i < ctx.ix.instrs.size(); ++i)
    if (ctx.ix.instrs[i].parent == l && ctx.ix.instrs[i].engine == e)
      ctx.plan.instrs[i].signal = model::Signal{name, 1};
  return name;
}

void declare_all_loop_semaphores(Context& ctx) {
  // Every pair with an instruction, as the paper's Figure 8 does (s1 there has no consumer).
  for (model::LoopId l = 0; l < ctx.ix.loops.size(); ++l)
    for (model::EngineId e = 0; e < ctx.ix.engines.size(); ++e)
      if (ctx.counts.loops[l].n[e] > 0) loop_semaphore(ctx, l, e);
}

void allocate_per_loop(Context& ctx, const std::vector<std::size_t>& deps, const std::string& why) {
  for (auto d : deps) {
    const auto& info = ctx.dep(d);
    const auto& sem = loop_semaphore(ctx, info.P, info.producer_engine);
    const std::uint32_t n = ctx.counts.loops[info.P].n[info.producer_engine];
    const std::uint32_t k = ctx.counts.k[info.producer];
    // paper §5.5 eq. (5): s_loop >= isgt(rh_S, k) * (N * expr - (N - K))
    const auto value = masked(ctx, info, sub(mul(num(n), wait_expr(ctx, info)), num(n - k)));
    ctx.add_wait(info.consumer, sem, value);
    std::string detail = "N=" + std::to_string(n) + " K=" + std::to_string(k);
    if (!why.empty()) detail += " (" + why + ")";
    ctx.decisions[d] = Decision{d, ctx.decisions[d].label, "per-loop", sem, value, detail};
  }
}

}  // namespace syncbisim::allocator
