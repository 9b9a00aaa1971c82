#include "analysis/dependency_liveness.h"

#include <algorithm>

#include "model/trip_rule.h"

namespace syncbisim::analysis {

namespace {

// The largest and smallest value the loop's rule gives on any engine. A loop without a rule runs
// once; a branch loop's rule chooses the branch (0 = then, 1 = else: docs/semantics.md §1).
std::uint32_t rule_max(const model::LoopInfo& l) { return l.trip ? model::rule_max(*l.trip) : 1; }
std::uint32_t rule_min(const model::LoopInfo& l) { return l.trip ? model::rule_min(*l.trip) : 1; }

// The most iterations one trip of `l` can run (@top and a branch: once).
std::uint32_t most_iterations(const model::LoopInfo& l) {
  return l.kind == model::LoopKind::Loop ? rule_max(l) : 1;
}

// Why the body of `l` alone (not its ancestors) can never run, or "".
std::string why_never_runs(const model::LoopInfo& l) {
  switch (l.kind) {
    case model::LoopKind::Top: return "";
    case model::LoopKind::Loop: return rule_max(l) == 0 ? "loop " + l.name + " never runs an iteration" : "";
    case model::LoopKind::CondThen:
      return rule_min(l) > 0 ? "the then branch of " + l.cond + " is never taken" : "";
    case model::LoopKind::CondElse:
      return rule_max(l) == 0 ? "the else branch of " + l.cond + " is never taken" : "";
  }
  return "";
}

std::string why_path_never_runs(const model::ProgramIndex& ix, model::LoopId l) {
  for (const auto id : ix.path(l))
    if (auto why = why_never_runs(ix.loops[id]); !why.empty()) return why;
  return "";
}

}  // namespace

std::vector<DependencyLiveness> dependency_liveness(const model::ProgramIndex& ix, const DependencyAnalysis& analysis) {
  std::vector<DependencyLiveness> out;
  out.reserve(analysis.deps.size());
  for (const auto& d : analysis.deps) {
    DependencyLiveness l;
    // The consumer must start, and the producer's instance it waits for must exist.
    l.why_dead = why_path_never_runs(ix, ix.instrs[d.consumer].parent);
    if (l.why_dead.empty()) l.why_dead = why_path_never_runs(ix, ix.instrs[d.producer].parent);
    // docs/semantics.md §2: the target iteration of common loop L is the consumer's minus k,
    // which exists only in a trip of more than k iterations. Starred entries ask nothing of
    // their loops (the target lies past every iteration there).
    for (std::size_t j = 0; j < d.common.size() && j < d.whole_from && l.why_dead.empty(); ++j) {
      const std::uint32_t k = d.distance[j];
      if (k == 0) continue;
      const auto& loop = ix.loops[d.common[j]];
      if (const auto m = most_iterations(loop); m <= k)
        l.why_dead = "offset " + std::to_string(k) + " at " + loop.name + ", whose trips run at most " +
                     std::to_string(m) + (m == 1 ? " iteration" : " iterations");
    }
    l.live = l.why_dead.empty();
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace syncbisim::analysis
