#include "allocator/expert.h"

#include <map>
#include <set>

#include "allocator/budget.h"

namespace syncbisim::allocator {

namespace {

using Pair = std::pair<model::LoopId, model::EngineId>;

// The judge is asked about at most this many pairs (each question is one allocation and one run of
// the timing model); the pairs after them keep the static choice and a note says so.
constexpr std::size_t kMaxJudgedPairs = 32;

}  // namespace

Mix expert_static_mix(const SpecFacts& facts) {
  Mix m;
  // paper §5.5: the mask of an offset-0 dependency, isgt(rh_S, 0), is 1 at every issue (the
  // consumer runs inside an iteration of S): the expert omits it, exactly.
  for (std::size_t d = 0; d < facts.analysis.deps.size(); ++d)
    if (facts.dep(d).allocatable() && facts.dep(d).offset == 0) m.unmasked.insert(d);
  return m;
}

model::Result<Allocation> allocate_expert(const SpecFacts& facts, const Options& options) {
  // The pairs where sharing differs from dedicated semaphores: two or more producers.
  std::map<Pair, std::set<model::InstrId>> producers;
  for (const auto& d : facts.analysis.deps)
    producers[{facts.ix.instrs[d.producer].parent, d.producer_engine}].insert(d.producer);
  std::vector<Pair> candidates;
  for (const auto& [p, ps] : producers)
    if (ps.size() >= 2) candidates.push_back(p);

  Mix mix = expert_static_mix(facts);
  auto best = allocate_once(facts, options, &mix);
  if (!best || !options.judge || candidates.empty()) {
    if (best && !candidates.empty())
      best->notes.push_back("expert: " + std::to_string(candidates.size()) +
                            " producer pairs with dedicated semaphores (no timing model: static rule)");
    return best;
  }
  auto cost = options.judge(best->impl);
  if (!cost) {
    best->notes.push_back("expert: the timing model cannot run the allocation (a deadlock on the model?): static rule");
    return best;
  }
  const auto start = *cost;
  std::size_t shared = 0, asked = 0;
  for (const auto& p : candidates) {
    if (asked == kMaxJudgedPairs) break;
    ++asked;
    Mix next = mix;
    next.pairs[p] = GroupKind::Loop;
    auto a = allocate_once(facts, options, &next);
    if (!a) return a;
    const auto c = options.judge(a->impl);
    // Sharing saves semaphores; it is taken unless the decode it adds makes the program slower.
    if (c && *c <= *cost) {
      mix = std::move(next);
      best = std::move(a);
      cost = c;
      ++shared;
    }
  }
  best->notes.push_back(
      "expert: of " + std::to_string(candidates.size()) + " producer pairs, " +
      std::to_string(candidates.size() - shared) + " keep dedicated semaphores and " + std::to_string(shared) +
      " share one (timing model: " + std::to_string(start) + " -> " + std::to_string(*cost) + " cycles)" +
      (asked < candidates.size() ? "; " + std::to_string(candidates.size() - asked) + " pairs past the limit of " +
                                       std::to_string(kMaxJudgedPairs) + " judged kept the static rule"
                                 : ""));
  return best;
}

}  // namespace syncbisim::allocator
