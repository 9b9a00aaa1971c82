// The barrier-based baseline (paper §3.4, Figure 4): a SYNC before every loop and cond and at
// the end of every iteration (branch) body, on every engine; one semaphore per engine counting
// its retirements; every barrier resets every semaphore. Between two barriers (a region: a
// maximal straight-line run of one body, analysis::BodyLayout::regions) thresholds are static.
#include "allocator/context.h"
#include "allocator/expr_build.h"

namespace syncbisim::allocator {

void allocate_barrier_baseline(Context& ctx) {
  const auto& ix = ctx.ix;
  std::vector<std::string> sem(ix.engines.size());
  for (model::EngineId e = 0; e < ix.engines.size(); ++e) {
    bool has = false;
    for (const auto& in : ix.instrs) has = has || in.engine == e;
    if (has) sem[e] = ctx.semaphore("s_", ix.engines[e]);
  }
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i)
    ctx.plan.instrs[i].signal = model::Signal{sem[ix.instrs[i].engine], 1};
  for (model::LoopId l = 1; l < ix.loops.size(); ++l) {
    ctx.plan.loops[l].before = model::Barrier{};  // reset list absent: resets all
    ctx.plan.loops[l].at_end = model::Barrier{};
  }
  for (std::size_t d = 0; d < ctx.analysis.deps.size(); ++d) {
    const auto& info = ctx.dep(d);
    auto& dec = ctx.decisions[d];
    dec.scheme = "barrier";
    const auto& pp = ctx.layout.instrs[info.producer];
    const auto& cp = ctx.layout.instrs[info.consumer];
    bool zero = true;
    for (auto k : info.distance) zero = zero && k == 0;
    const auto Ep = info.producer_engine;
    if (zero && pp.region == cp.region) {
      // Figure 4: s_E >= the producer's ordinal among E's instructions in the region.
      dec.semaphore = sem[Ep];
      dec.wait = num(pp.order + 1);
      dec.detail = "same region, ordinal " + std::to_string(pp.order + 1);
      ctx.add_wait(info.consumer, sem[Ep], *dec.wait);
      continue;
    }
    const bool later =
        zero && info.P == info.S &&
        ctx.counts.instr_stmt_in(ix, info.producer, info.S) > ctx.counts.instr_stmt_in(ix, info.consumer, info.S);
    if (!later) {
      dec.detail = "producer instance before the region's barrier (drained), no wait";
      continue;
    }
    // The producer instance owed comes later in the same iteration, behind a barrier the
    // consumer's engine cannot pass before issuing: a wait that never holds (s_E never exceeds
    // E's instructions in the consumer's region). Safe: a deadlock, never an early issue.
    const auto& region = ctx.layout.regions[cp.region];
    const std::size_t in_region = Ep < region.per_engine.size() ? region.per_engine[Ep].size() : 0;
    dec.semaphore = sem[Ep];
    dec.wait = num(in_region + 1);
    dec.detail = "producer later in the same iteration, behind a barrier: blocks (over-synchronization)";
    ctx.add_wait(info.consumer, sem[Ep], *dec.wait);
  }
}

}  // namespace syncbisim::allocator
