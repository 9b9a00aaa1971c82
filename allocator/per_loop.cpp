// paper §5.4-5.5: one semaphore per (loop, engine) pair, shared by the N instructions of that
// engine directly in the loop body; the producer is the K-th of them.
#include "allocator/expr_build.h"
#include "allocator/strategies.h"
#include "allocator/wait_value.h"

namespace syncbisim::allocator {

const std::string& LoopSemaphores::of(model::LoopId l, model::EngineId e) {
  const auto key = std::make_pair(l, e);
  if (auto it = names_.find(key); it != names_.end()) return it->second;
  const auto& name = names_[key] = draft_.semaphore("s_", facts_.ix.loops[l].name + "_" + facts_.ix.engines[e]);
  for (const auto i : facts_.direct[l])
    if (facts_.ix.instrs[i].engine == e) draft_.signal(i, name);
  return name;
}

void LoopSemaphores::declare_all() {
  for (model::LoopId l = 0; l < facts_.ix.loops.size(); ++l)
    for (model::EngineId e = 0; e < facts_.ix.engines.size(); ++e)
      if (facts_.counts.loops[l].n[e] > 0) of(l, e);
}

void allocate_per_loop(const SpecFacts& facts, Draft& draft, LoopSemaphores& sems, const std::vector<std::size_t>& deps,
                       const std::string& why) {
  for (auto d : deps) {
    const auto count = binding_count(facts, draft, d);
    if (!count) continue;
    const auto& info = facts.dep(d);
    const auto& sem = sems.of(info.P, info.producer_engine);
    const std::uint32_t n = facts.counts.loops[info.P].n[info.producer_engine];
    const std::uint32_t k = facts.counts.k[info.producer];
    // paper §5.5 eq. (5): s_loop >= isgt(rh_S, k) * (N * expr - (N - K)); the same decode holds
    // for any count (paper (4): s_loop >= N*r - (N-K) iff the producer retired r times).
    const auto value = draft.add_wait(info.consumer, sem,
                                      WaitValue{count->value.mask, sub(mul(num(n), count->value.count), num(n - k))});
    std::string detail = "N=" + std::to_string(n) + " K=" + std::to_string(k);
    if (!count->how.empty()) detail += ", " + count->how;
    if (!why.empty()) detail += " (" + why + ")";
    draft.decide(d, Scheme::PerLoop, sem, value, detail, count->exact);
  }
}

}  // namespace syncbisim::allocator
