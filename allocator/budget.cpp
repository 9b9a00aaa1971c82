#include "allocator/budget.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "allocator/give_up.h"
#include "allocator/stats.h"

namespace syncbisim::allocator {

void add_fit_notes(Allocation& a, const std::set<std::uint32_t>& boundaries) {
  if (!boundaries.empty()) {
    std::string b;
    for (auto s : boundaries) b += (b.empty() ? "" : ", ") + std::to_string(s);
    a.notes.push_back("budget: semaphores recycled behind barriers before top-level statements " + b +
                      " (not exact: such a barrier orders every engine, more than the dependencies ask)");
  }
  std::size_t inexact = 0;
  std::string which;
  for (const auto& d : a.decisions)
    if (!d.exact) {
      ++inexact;
      which += (which.empty() ? "" : ", ") + d.label;
    }
  if (inexact > 0) a.notes.push_back("budget: " + std::to_string(inexact) + " dependencies not exact: " + which);
}

Mix strategy_mix(const SpecFacts& facts, Strategy strategy) {
  Mix m;
  if (strategy == Strategy::PerInstruction || strategy == Strategy::Mixed) return m;  // every producer its own
  for (const auto& d : facts.analysis.deps)
    m.pairs[{facts.ix.instrs[d.producer].parent, d.producer_engine}] =
        strategy == Strategy::PerEngine ? GroupKind::Engine : GroupKind::Loop;
  return m;
}

std::size_t Usage::registers_max() const {
  return registers.empty() ? 0 : *std::max_element(registers.begin(), registers.end());
}

bool Usage::fits(const Options& o) const {
  return semaphores <= o.max_semaphores && registers_max() <= o.max_registers;
}

Usage usage_of(const model::Program& impl, const model::ProgramIndex& spec_ix) {
  Usage u;
  u.semaphores = impl.semaphores.size();
  u.registers.assign(spec_ix.engines.size(), 0);
  // The registers alone, not all of compute_stats: a budget trial costs this one walk of the impl.
  const auto names = registers_per_engine(impl);
  for (std::size_t e = 0; e < names.size() && e < u.registers.size(); ++e) u.registers[e] = names[e];
  return u;
}

namespace {

using Pair = std::pair<model::LoopId, model::EngineId>;

// One candidate allocation and what it costs. A candidate is first only decided (its semaphores
// and decisions known, allocator/decide.h); it is finished (impl emitted, registers counted) when
// its registers are asked for: every candidate of a register step, and the one kept of a
// semaphore step. Scores never read the impl, so they are those of the finished allocation.
struct Trial {
  Mix mix;
  Options options;                           // prune, licm, cse as fitted
  std::optional<DecidedAllocation> decided;  // until finished
  std::optional<Allocation> allocation;      // once finished
  Usage usage;                               // registers once finished
  std::uint64_t alu = 0;                     // Σ operators of the thresholds (before the reductions)
  std::uint64_t barrier_cost = 0;
  const std::vector<Decision>& decisions() const { return allocation ? allocation->decisions : decided->decisions(); }
  std::size_t over(const Options& limits) const {  // how far above the register budget, summed
    std::size_t o = 0;
    for (auto r : usage.registers) o += r > limits.max_registers ? r - limits.max_registers : 0;
    return o;
  }
};

class Fitter {
 public:
  Fitter(const SpecFacts& facts, const Options& options) : facts_(facts), limits_(options) {}

  model::Result<Allocation> run() {
    auto t = trial(initial_mix(), limits_, false);
    if (!t) return *error_;
    for (int step = 0; step < 10000; ++step) {
      std::optional<Trial> next;
      if (t->usage.semaphores > limits_.max_semaphores) {
        next = fewer_semaphores(*t);
        if (!next)
          return model::make_error("", "over-budget",
                                   "cannot fit in " + std::to_string(limits_.max_semaphores) +
                                       " semaphores: " + std::to_string(t->usage.semaphores) +
                                       " are left when every dependency that can is on barriers");
      } else if (!finish_trial(*t)) {
        return *error_;
      } else if (t->usage.registers_max() > limits_.max_registers) {
        next = fewer_registers(*t);
        if (!next)
          return model::make_error("", "over-budget",
                                   "cannot fit in " + std::to_string(limits_.max_registers) +
                                       " registers per engine: " + std::to_string(t->usage.registers_max()) +
                                       " are left when every dependency that can is on barriers");
      } else {
        return finish(std::move(*t));
      }
      if (error_) return *error_;
      t = std::move(next);
    }
    return model::make_error("", "allocator-bug", "the budget fit did not end");
  }

 private:
  Mix initial_mix() const { return strategy_mix(facts_, limits_.strategy); }

  // `finished`: also emitted and its registers counted (else only decided; finish() it later).
  std::optional<Trial> trial(Mix mix, const Options& options, bool finished) {
    Options o = options;
    o.strategy = Strategy::Mixed;
    auto a = decide_once(facts_, o, &mix);
    if (!a) {
      error_ = a.error();
      return std::nullopt;
    }
    Trial t{std::move(mix), options, std::move(*a), std::nullopt, {}, 0, 0};
    t.usage.semaphores = t.decided->semaphores();
    for (const auto& d : t.decisions()) {
      if (d.wait) t.alu += d.wait->alu_cost();
      if (d.scheme == Scheme::Fallback || d.scheme == Scheme::Barrier) t.barrier_cost += cost_of(d.dep);
    }
    t.barrier_cost += t.mix.boundaries.size();  // a top-level barrier runs once
    if (finished && !finish_trial(t)) return std::nullopt;
    return t;
  }

  bool finish_trial(Trial& t) {
    if (t.allocation) return true;
    auto a = std::move(*t.decided).finish();
    t.decided.reset();
    if (!a) {
      error_ = a.error();
      return false;
    }
    t.allocation = std::move(*a);
    t.usage = usage_of(t.allocation->impl, facts_.ix);
    return true;
  }

  // The paper's mask isgt(rh_S, 0) of an offset-0 dependency: 1 whenever the consumer issues.
  static bool mask_is_one(const analysis::DependencyInfo& d) { return d.allocatable() && d.offset == 0; }

  std::uint64_t cost_of(std::size_t dep) const {
    const auto g = give_up_plan(facts_, facts_.dep(dep));
    return g ? g->cost : 1;
  }

  // Of the candidates, the one that lowers `measure` and costs the least per unit lowered;
  // `finished`: the measure reads registers, so every candidate is finished.
  template <class Measure, class Cost>
  std::optional<Trial> best(const Trial& from, const std::vector<std::pair<Mix, Options>>& candidates, Measure measure,
                            Cost cost, bool finished) {
    std::optional<Trial> out;
    double out_score = 0;
    const auto before = measure(from);
    for (const auto& [m, o] : candidates) {
      auto t = trial(m, o, finished);
      if (!t) return std::nullopt;
      const auto after = measure(*t);
      if (after >= before) continue;
      const double score = static_cast<double>(cost(from, *t)) / static_cast<double>(before - after);
      if (!out || score < out_score) {
        out = std::move(t);
        out_score = score;
      }
    }
    return out;
  }

  static double alu_cost(const Trial& a, const Trial& b) {
    return static_cast<double>(b.alu) - static_cast<double>(a.alu) + 1e-3;
  }
  static double barrier_cost(const Trial& a, const Trial& b) {
    return static_cast<double>(b.barrier_cost) - static_cast<double>(a.barrier_cost) +
           1e-3 * static_cast<double>(b.alu);
  }

  std::optional<Trial> fewer_semaphores(const Trial& t) {
    const auto sems = [](const Trial& x) { return x.usage.semaphores; };
    // 1. Exactly: a pair's producers share one semaphore; an engine's pairs share its semaphore.
    std::vector<std::pair<Mix, Options>> exact;
    std::set<Pair> pairs;
    std::set<model::EngineId> engines;
    for (const auto& d : facts_.analysis.deps) {
      pairs.insert({facts_.ix.instrs[d.producer].parent, d.producer_engine});
      engines.insert(d.producer_engine);
    }
    for (const auto& p : pairs) {
      auto it = t.mix.pairs.find(p);
      if (it != t.mix.pairs.end() && it->second != GroupKind::Own) continue;
      Mix m = t.mix;
      m.pairs[p] = GroupKind::Loop;
      exact.emplace_back(m, t.options);
    }
    for (auto e : engines) {
      Mix m = t.mix;
      bool any = false;
      for (const auto& p : pairs)
        if (p.second == e && m.pairs[p] != GroupKind::Engine) {
          m.pairs[p] = GroupKind::Engine;
          any = true;
        }
      if (any) exact.emplace_back(m, t.options);
    }
    if (auto r = best(t, exact, sems, alu_cost, false)) return r;
    if (error_) return std::nullopt;
    // 2. Recycling: a barrier before a top-level statement resets semaphores reused after it.
    std::vector<std::pair<Mix, Options>> recycle;
    for (std::uint32_t b = 1; b < facts_.spec.body.size(); ++b) {
      if (t.mix.boundaries.count(b) || !boundary_allowed(facts_, b)) continue;
      Mix m = t.mix;
      m.boundaries.insert(b);
      recycle.emplace_back(m, t.options);
    }
    if (auto r = best(t, recycle, sems, barrier_cost, false)) return r;
    if (error_) return std::nullopt;
    // 3. Barriers instead of a semaphore: every dependency waiting on it, if they all can.
    return give_up(
        t, [&](const Decision& d) { return !d.semaphore.empty(); }, sems, true);
  }

  std::optional<Trial> fewer_registers(const Trial& t) {
    const auto over = [&](const Trial& x) { return x.over(limits_); };
    // 1. Without loss: keep only registers some wait reads, then no shared or hoisted values.
    Options o = t.options;
    if (!o.prune_registers) o.prune_registers = true;
    else if (!o.direct_registers) o.direct_registers = true;
    else if (o.cse) o.cse = false;
    else if (o.licm) o.licm = false;
    if (o.prune_registers != t.options.prune_registers || o.direct_registers != t.options.direct_registers ||
        o.cse != t.options.cse || o.licm != t.options.licm)
      return trial(t.mix, o, false);
    // 2. Drop masks, one engine and mask loop at a time: first the paper's isgt(rh_S, 0), which
    // is 1 at every issue (exact), then the others (a stricter wait: it also waits, while its
    // component underflows, for the earlier trips' instances the count names, all in the
    // consumer's past).
    for (bool exact : {true, false}) {
      std::map<std::pair<model::EngineId, std::string>, std::vector<std::size_t>> by_mask;
      for (const auto& d : t.decisions()) {
        const auto& info = facts_.dep(d.dep);
        if (!d.wait || t.mix.unmasked.contains(d.dep) ||
            t.usage.registers[info.consumer_engine] <= limits_.max_registers)
          continue;
        if (exact != mask_is_one(info)) continue;
        for (const auto& r : d.wait->registers())
          if (r.rfind("rh_", 0) == 0) by_mask[{info.consumer_engine, r}].push_back(d.dep);
      }
      std::vector<std::pair<Mix, Options>> unmask;
      for (const auto& [k, deps] : by_mask) {
        Mix m = t.mix;
        m.unmasked.insert(deps.begin(), deps.end());
        unmask.emplace_back(m, t.options);
      }
      if (auto r = best(t, unmask, over, alu_cost, true)) return r;
      if (error_) return std::nullopt;
    }
    // 3. Barriers for the dependencies of an engine over the budget.
    return give_up(
        t,
        [&](const Decision& d) {
          return d.wait && t.usage.registers[facts_.dep(d.dep).consumer_engine] > limits_.max_registers;
        },
        over, false);
  }

  // Leaves to barriers, as one candidate each, the dependencies that wait on one semaphore
  // (by_semaphore), or each single one and those of each consumer engine, among those `eligible`.
  template <class Eligible, class Measure>
  std::optional<Trial> give_up(const Trial& t, Eligible eligible, Measure measure, bool by_semaphore) {
    std::map<std::string, std::vector<std::size_t>> groups;
    std::size_t singles = 0;
    for (const auto& d : t.decisions())
      singles += eligible(d) && !t.mix.given_up.contains(d.dep) && give_up_plan(facts_, facts_.dep(d.dep));
    // One candidate per dependency costs a re-allocation each, round after round: cubic in the
    // dependencies (issue 43: 400 dependencies under --max-registers 2 took 40 s). Past
    // kFineGiveUp eligible ones, only whole engines are tried; finish() says so.
    const bool fine = singles <= kFineGiveUp;
    coarse_ = coarse_ || (!by_semaphore && !fine);
    for (const auto& d : t.decisions()) {
      if (!eligible(d) || t.mix.given_up.contains(d.dep) || !give_up_plan(facts_, facts_.dep(d.dep))) continue;
      if (by_semaphore) {
        groups[d.semaphore].push_back(d.dep);
      } else {
        if (fine) groups["dep " + std::to_string(d.dep)].push_back(d.dep);
        groups["engine " + std::to_string(facts_.dep(d.dep).consumer_engine)].push_back(d.dep);
      }
    }
    std::vector<std::pair<Mix, Options>> candidates;
    for (const auto& [k, deps] : groups) {
      Mix m = t.mix;
      bool ok = true;
      for (auto d : deps) ok = ok && give_up_plan(facts_, facts_.dep(d)).has_value();
      if (!ok) continue;
      m.given_up.insert(deps.begin(), deps.end());
      candidates.emplace_back(m, t.options);
    }
    return best(t, candidates, measure, barrier_cost, !by_semaphore);
  }

  model::Result<Allocation> finish(Trial t) {
    auto& a = *t.allocation;  // finished by run()
    a.notes.push_back("budget: " + std::to_string(t.usage.semaphores) + " of " +
                      std::to_string(limits_.max_semaphores) + " semaphores, " +
                      std::to_string(t.usage.registers_max()) + " of " + std::to_string(limits_.max_registers) +
                      " registers per engine (largest)" + (t.options.prune_registers ? ", registers pruned" : "") +
                      (!t.options.cse ? ", no CSE" : "") + (!t.options.licm ? ", no LICM" : ""));
    add_fit_notes(a, t.mix.boundaries);
    if (coarse_)
      a.notes.push_back("budget: more than " + std::to_string(kFineGiveUp) +
                        " dependencies could go to barriers: whole engines' dependencies were tried, not each one "
                        "(a bound on the search, docs/allocator.md \"Budgets\")");
    return std::move(a);
  }

  static constexpr std::size_t kFineGiveUp = 64;
  const SpecFacts& facts_;
  Options limits_;
  std::optional<model::Diagnostic> error_;
  bool coarse_ = false;  // give_up tried whole engines only
};

}  // namespace

model::Result<Allocation> fit_budget(const SpecFacts& facts, const Options& options) {
  return Fitter(facts, options).run();
}

}  // namespace syncbisim::allocator
