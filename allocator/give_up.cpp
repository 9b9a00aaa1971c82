#include "allocator/give_up.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "allocator/target_count.h"
#include "allocator/trip_facts.h"

namespace syncbisim::allocator {

namespace {

// Barriers a barrier at the top of `l`'s body would execute per run.
std::uint64_t executions(const model::ProgramIndex& ix, model::LoopId l) {
  std::uint64_t n = 1;
  for (auto a : ix.path(l))
    n = std::min<std::uint64_t>(n * std::max<std::uint32_t>(1, max_iterations(ix.loops[a])), 1u << 30);
  return n;
}

// The levels of a region's instructions in the graph of its stream order and its
// same-iteration dependencies (the length of the longest path reaching each), or nothing when
// that graph has a cycle (the spec deadlocks there). Everything below a level is closed under
// both: a barrier after every instruction of a lower level, on every engine, cuts no wait short.
std::optional<std::map<model::InstrId, std::uint32_t>> levels(const SpecFacts& facts, std::uint32_t region) {
  const auto& r = facts.layout.regions[region];
  std::map<model::InstrId, std::vector<model::InstrId>> preds;
  for (const auto& lane : r.per_engine)
    for (std::size_t k = 0; k < lane.size(); ++k) {
      preds[lane[k]];
      if (k > 0) preds[lane[k]].push_back(lane[k - 1]);
    }
  for (const auto& d : facts.analysis.deps) {
    bool zero = true;
    for (auto k : d.distance) zero = zero && k == 0;
    if (zero && preds.count(d.producer) && preds.count(d.consumer)) preds[d.consumer].push_back(d.producer);
  }
  std::map<model::InstrId, std::uint32_t> level;
  std::map<model::InstrId, int> state;  // 1 visiting, 2 done
  bool cyclic = false;
  const std::function<std::uint32_t(model::InstrId)> visit = [&](model::InstrId x) -> std::uint32_t {
    if (state[x] == 2) return level[x];
    if (state[x] == 1) {
      cyclic = true;
      return 0;
    }
    state[x] = 1;
    std::uint32_t l = 0;
    for (auto p : preds[x]) l = std::max(l, visit(p) + 1);
    state[x] = 2;
    return level[x] = l;
  };
  for (const auto& [x, ps] : preds) visit(x);
  if (cyclic) return std::nullopt;
  return level;
}

}  // namespace

std::optional<GiveUp> give_up_plan(const SpecFacts& facts, const analysis::DependencyInfo& d) {
  const auto& ix = facts.ix;
  GiveUp g;
  std::size_t js = d.common.size();
  for (std::size_t j = 0; j < d.common.size(); ++j)
    if (d.distance[j] != 0) {
      js = j;
      break;
    }
  if (js < d.common.size()) {
    // paper §5.2's fallback: everything owed lies in earlier iterations of L.
    g.loop = d.common[js];
    if (g.loop == model::kTop) return std::nullopt;  // never binds: no barrier needed (target_count)
    g.cost = executions(ix, g.loop);
    g.how = "barrier() at the end of each iteration of " + ix.loops[g.loop].name;
    return g;
  }
  const auto S = d.S;
  const auto cons_stmt = facts.counts.instr_stmt_in(ix, d.consumer, S);
  const auto prod_stmt = facts.counts.instr_stmt_in(ix, d.producer, S);
  if (d.P != S && (d.exclusive_branches || prod_stmt > cons_stmt)) {
    // Nothing of the current iteration of S is owed (docs/analysis.md).
    if (S == model::kTop) return std::nullopt;
    g.loop = S;
    g.cost = executions(ix, S);
    g.how = "barrier() at the end of each iteration of " + ix.loops[S].name;
    return g;
  }
  if (prod_stmt < cons_stmt) {
    g.kind = GiveUp::Kind::BeforeStmt;
    g.loop = S;
    g.stmt = cons_stmt;
    g.cost = executions(ix, S);
    g.how = "barrier() before the consumer's statement of " + ix.loops[S].name;
    return g;
  }
  if (prod_stmt > cons_stmt || d.P != S) return std::nullopt;  // later in the same iteration: never owed in time
  // One region: a cut between the producer's level and the consumer's.
  g.kind = GiveUp::Kind::Cut;
  g.region = facts.layout.instrs[d.producer].region;
  if (!levels(facts, g.region)) return std::nullopt;
  g.loop = facts.layout.regions[g.region].loop;
  g.cost = executions(ix, g.loop);
  g.how = "barrier() inside the region, after the producer and what it depends on";
  return g;
}

void apply_give_ups(const SpecFacts& facts, Draft& draft, const std::vector<std::size_t>& deps) {
  std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> cut_spans;  // (level p + 1, level c)
  const model::Barrier none{std::vector<std::string>{}, {}};
  for (auto d : deps) {
    const auto& info = facts.dep(d);
    const auto g = give_up_plan(facts, info);
    if (!g) continue;
    switch (g->kind) {
      case GiveUp::Kind::AtEnd: draft.barrier_at_end(g->loop, none); break;
      case GiveUp::Kind::BeforeStmt: draft.barrier_before_stmt(g->loop, g->stmt, none); break;
      case GiveUp::Kind::Cut: {
        const auto lv = *levels(facts, g->region);
        cut_spans[g->region].emplace_back(lv.at(info.producer) + 1, lv.at(info.consumer));
        break;
      }
    }
    draft.decide(d, Scheme::Fallback, "", std::nullopt, "(budget: not exact) " + g->how + ", no wait", false);
  }
  // Per region, the fewest cut levels that separate every pair (by the spans' right ends), each
  // a barrier after the instructions of lower levels.
  for (auto& [region, spans] : cut_spans) {
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::vector<std::uint32_t> cut_levels;
    for (const auto& [lo, hi] : spans)
      if (cut_levels.empty() || cut_levels.back() < lo) cut_levels.push_back(hi);
    const auto lv = *levels(facts, region);
    for (auto cl : cut_levels) {
      std::vector<std::uint32_t> pos(facts.ix.engines.size(), 0);
      for (const auto& [x, l] : lv) pos[facts.ix.instrs[x].engine] += l < cl;
      draft.cut(region, std::move(pos));
    }
  }
}

}  // namespace syncbisim::allocator
