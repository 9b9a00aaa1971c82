#include "allocator/expert.h"

#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "allocator/budget.h"
#include "parallel/run_indexed.h"

namespace syncbisim::allocator {

namespace {

using Pair = std::pair<model::LoopId, model::EngineId>;

// The judge is asked about at most this many pairs of one program (each question is one
// allocation and one run of the timing model); the pairs after them keep the static choice and a
// note says so. With more pairs than this the program is judged a top-level statement at a time,
// and the limit holds per statement.
constexpr std::size_t kMaxJudgedPairs = 32;

// The greedy choice of paper §8.2's developer, on one spec: from `mix` (the static rule), each pair
// of `pairs` in turn shares one semaphore when the judge finds the result no slower.
struct Greedy {
  Mix mix;
  std::optional<Allocation> best;  // the allocation of `mix`
  std::optional<std::uint64_t> start, cost;
  std::size_t shared = 0, asked = 0;
};

model::Result<Greedy> judge_pairs(const SpecFacts& facts, const Options& options, Mix mix,
                                  const std::vector<Pair>& pairs) {
  Greedy g;
  auto first = allocate_once(facts, options, &mix);
  if (!first) return first.error();
  g.start = g.cost = options.judge(facts.spec, facts.ix, first->impl);
  g.best = std::move(*first);
  g.mix = std::move(mix);
  if (!g.cost) return g;  // the model cannot run it (a deadlock on the model?): the static rule
  for (const auto& p : pairs) {
    if (g.asked == kMaxJudgedPairs) break;
    ++g.asked;
    Mix next = g.mix;
    next.pairs[p] = GroupKind::Loop;
    auto a = allocate_once(facts, options, &next);
    if (!a) return a.error();
    const auto c = options.judge(facts.spec, facts.ix, a->impl);
    // Sharing saves semaphores; it is taken unless the decode it adds makes the program slower.
    if (c && *c <= *g.cost) {
      g.mix = std::move(next);
      g.best = std::move(*a);
      g.cost = c;
      ++g.shared;
    }
  }
  return g;
}

// Top-level statement `stmt` of the spec as a spec of its own, with `deps`, the dependencies that
// have both ends in it. Those that cross its edges are left out: their waits stand outside it,
// once per run of the statement, not per iteration, and are not judged.
model::Program window_of(const SpecFacts& facts, std::uint32_t stmt, const std::vector<std::size_t>& deps) {
  model::Program w;
  w.kind = model::ProgramKind::Spec;
  w.engines = facts.spec.engines;
  w.buffers = facts.spec.buffers;
  w.body.push_back(facts.spec.body[stmt]);
  for (const auto d : deps) w.deps.push_back(facts.spec.deps[d]);
  return w;
}

struct Windows {
  std::vector<Pair> shared;
  std::size_t statements = 0, asked = 0;
  std::size_t not_run = 0, not_run_pairs = 0;  // statements whose static allocation the model cannot run
  std::uint64_t start = 0, cost = 0;  // summed over the statements the model ran
};

// Each top-level statement holding candidate pairs judged on its own: a pair's producers sit in
// one statement, and the decode that sharing adds sits at its consumers, in that statement but
// for the few that follow it (which wait once, after it). The judge's work is then linear in the
// kernel, where judging the whole program per pair was quadratic (docs/allocator.md "The expert
// strategy").
model::Result<Windows> judge_windows(const SpecFacts& facts, const Options& options,
                                     const std::vector<Pair>& candidates) {
  std::map<std::uint32_t, std::vector<Pair>> by_stmt;
  for (const auto& p : candidates) by_stmt[facts.counts.stmt_in(facts.ix, p.first, model::kTop)].push_back(p);
  std::map<std::uint32_t, std::vector<std::size_t>> deps_in;
  for (const auto& [stmt, pairs] : by_stmt) deps_in[stmt];
  for (std::size_t d = 0; d < facts.analysis.deps.size(); ++d) {
    const auto stmt = top_statement(facts, facts.dep(d).producer);
    if (by_stmt.count(stmt) && top_statement(facts, facts.dep(d).consumer) == stmt) deps_in[stmt].push_back(d);
  }
  // Each statement's greedy choice, on `options.jobs` threads, gathered in statement order (the
  // same result for any number of threads). The judge must then be safe to call at once.
  const std::vector<std::pair<std::uint32_t, std::vector<Pair>>> windows(by_stmt.begin(), by_stmt.end());
  // A statement's choice in the program's ids (its allocation is not needed past the window).
  struct Verdict {
    std::vector<Pair> shared;
    std::optional<std::uint64_t> start, cost;
    std::size_t asked = 0;
  };
  std::vector<std::optional<model::Result<Verdict>>> judged(windows.size());
  parallel::run_indexed(
      windows.size(), options.jobs,
      [&](std::size_t w) {
        const auto& [stmt, pairs] = windows[w];
        const auto spec = window_of(facts, stmt, deps_in.at(stmt));
        const auto ix = model::ProgramIndex::build(spec);
        if (!ix) {
          judged[w].emplace(ix.error());
          return;
        }
        const SpecFacts wf(spec, *ix);
        // The window's own ids for the pairs (engines keep theirs: the engine list is the same).
        std::vector<Pair> local;
        for (const auto& [loop, engine] : pairs) local.emplace_back(*ix->loop(facts.ix.loops[loop].name), engine);
        const auto g = judge_pairs(wf, options, expert_static_mix(wf), local);
        if (!g) {
          judged[w].emplace(g.error());
          return;
        }
        Verdict v{{}, g->start, g->cost, g->asked};
        for (std::size_t k = 0; k < local.size(); ++k)
          if (g->mix.pairs.count(local[k])) v.shared.push_back(pairs[k]);
        judged[w].emplace(std::move(v));
      },
      [] { return false; });
  Windows out;
  for (std::size_t w = 0; w < windows.size(); ++w) {
    auto& g = *judged[w];
    if (!g) return g.error();
    ++out.statements;
    if (!g->cost) {
      ++out.not_run;
      out.not_run_pairs += windows[w].second.size();
      continue;
    }
    out.asked += g->asked;
    out.start += *g->start;
    out.cost += *g->cost;
    out.shared.insert(out.shared.end(), g->shared.begin(), g->shared.end());
  }
  return out;
}

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
  const std::string of = "expert: of " + std::to_string(candidates.size()) + " producer pairs, ";

  if (!options.judge || candidates.empty()) {
    const Mix mix = expert_static_mix(facts);
    auto best = allocate_once(facts, options, &mix);
    if (best && !candidates.empty())
      best->notes.push_back("expert: " + std::to_string(candidates.size()) +
                            " producer pairs with dedicated semaphores (no timing model: static rule)");
    return best;
  }
  if (candidates.size() <= kMaxJudgedPairs) {
    auto g = judge_pairs(facts, options, expert_static_mix(facts), candidates);
    if (!g) return g.error();
    auto best = std::move(*g->best);
    if (!g->cost) {
      best.notes.push_back("expert: the timing model cannot run the allocation (a deadlock on the model?): static rule");
      return best;
    }
    best.notes.push_back(of + std::to_string(candidates.size() - g->shared) + " keep dedicated semaphores and " +
                         std::to_string(g->shared) + " share one (timing model: " + std::to_string(*g->start) +
                         " -> " + std::to_string(*g->cost) + " cycles)");
    return best;
  }
  auto w = judge_windows(facts, options, candidates);
  if (!w) return w.error();
  Mix mix = expert_static_mix(facts);
  for (const auto& p : w->shared) mix.pairs[p] = GroupKind::Loop;
  auto best = allocate_once(facts, options, &mix);
  if (!best) return best;
  const std::size_t shared = w->shared.size();
  best->notes.push_back(
      of + std::to_string(candidates.size() - shared) + " keep dedicated semaphores and " + std::to_string(shared) +
      " share one, judged a top-level statement at a time (" + std::to_string(w->statements) +
      " statements; timing model summed over them: " + std::to_string(w->start) + " -> " + std::to_string(w->cost) +
      " cycles)" +
      (w->not_run > 0 ? "; in " + std::to_string(w->not_run) +
                            " statements the timing model cannot run the allocation: static rule"
                      : "") +
      (w->asked + w->not_run_pairs < candidates.size()
           ? "; " + std::to_string(candidates.size() - w->asked - w->not_run_pairs) + " pairs past the limit of " +
                 std::to_string(kMaxJudgedPairs) + " judged per statement kept the static rule"
           : ""));
  return best;
}

}  // namespace syncbisim::allocator
