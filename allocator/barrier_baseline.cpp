// The barrier-based baseline (paper §3.4, Figure 4): a SYNC before every loop and cond and at
// the end of every iteration (branch) body, on every engine; one semaphore per engine counting
// its retirements; every barrier resets every semaphore. Between two barriers (a region: a
// maximal straight-line run of one body, analysis::BodyLayout::regions) thresholds are static.
#include "allocator/expr_build.h"
#include "allocator/strategies.h"

namespace syncbisim::allocator {

void allocate_barrier_baseline(const SpecFacts& facts, Draft& draft) {
  const auto& ix = facts.ix;
  std::vector<std::string> sem(ix.engines.size());
  for (model::EngineId e = 0; e < ix.engines.size(); ++e) {
    bool has = false;
    for (const auto& in : ix.instrs) has = has || in.engine == e;
    if (has) sem[e] = draft.semaphore("s_", ix.engines[e]);
  }
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i) draft.signal(i, sem[ix.instrs[i].engine]);
  for (model::LoopId l = 1; l < ix.loops.size(); ++l) {
    draft.barrier_before(l, model::Barrier{});  // reset list absent: resets all
    draft.barrier_at_end(l, model::Barrier{});
  }
  for (std::size_t d = 0; d < facts.analysis.deps.size(); ++d) {
    const auto& info = facts.dep(d);
    const auto& pp = facts.layout.instrs[info.producer];
    const auto& cp = facts.layout.instrs[info.consumer];
    bool zero = true;
    for (auto k : info.distance) zero = zero && k == 0;
    const auto Ep = info.producer_engine;
    if (zero && pp.region == cp.region) {
      // Figure 4: s_E >= the producer's ordinal among E's instructions in the region.
      const auto value = draft.add_wait(info.consumer, sem[Ep], WaitValue{std::nullopt, num(pp.order + 1)});
      draft.decide(d, Scheme::Barrier, sem[Ep], value, "same region, ordinal " + std::to_string(pp.order + 1));
      continue;
    }
    const bool later =
        zero && info.P == info.S &&
        facts.counts.instr_stmt_in(ix, info.producer, info.S) > facts.counts.instr_stmt_in(ix, info.consumer, info.S);
    if (!later) {
      draft.decide(d, Scheme::Barrier, "", std::nullopt,
                   "producer instance before the region's barrier (drained), no wait");
      continue;
    }
    // The producer instance owed comes later in the same iteration, behind a barrier the
    // consumer's engine cannot pass before issuing: a wait that never holds (s_E never exceeds
    // E's instructions in the consumer's region). Safe: a deadlock, never an early issue.
    const auto& region = facts.layout.regions[cp.region];
    const std::size_t in_region = Ep < region.per_engine.size() ? region.per_engine[Ep].size() : 0;
    const auto value = draft.add_wait(info.consumer, sem[Ep], WaitValue{std::nullopt, num(in_region + 1)});
    draft.decide(d, Scheme::Barrier, sem[Ep], value,
                 "producer later in the same iteration, behind a barrier: blocks (over-synchronization)");
  }
}

}  // namespace syncbisim::allocator
