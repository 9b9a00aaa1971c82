#include "allocator/pressure_fit.h"

#include <algorithm>
#include <map>
#include <set>
#include <span>

#include "allocator/budget.h"
#include "allocator/decide.h"
#include "allocator/give_up.h"
#include "allocator/mixed.h"
#include "analysis/register_liveness.h"
#include "model/walk.h"

namespace syncbisim::allocator {

namespace {

// Barriers before hot statements take a few rounds (no two in a row per round), then each round
// halves the dependencies left where the budget bites, so a statement of n dependencies on an
// engine is out of them after about log2(n) + 1 rounds; more rounds than that would mean the
// pressure is not where the dependencies are.
constexpr int kRounds = 16;

// The spec's top-level statement each impl top-level statement stands for: that of its first
// instruction; a statement with none (register updates between nests) stands for the next one
// that has.
std::vector<std::optional<std::uint32_t>> spec_statement_of(const model::Program& impl, const SpecFacts& facts) {
  std::vector<std::optional<std::uint32_t>> out(impl.body.size());
  for (std::size_t i = 0; i < impl.body.size(); ++i) {
    std::span<const model::Stmt> one(&impl.body[i], 1);
    model::for_each_stream(one, [&](const model::Stream& s) {
      for (const auto& item : s.items)
        if (const auto* in = std::get_if<model::Instr>(&item); in && !out[i])
          if (const auto id = facts.ix.instr(in->id)) out[i] = top_statement(facts, *id);
    });
  }
  for (std::size_t i = impl.body.size(); i-- > 0;)
    if (!out[i] && i + 1 < impl.body.size()) out[i] = out[i + 1];
  return out;
}

std::size_t registers_named(const model::Expr& e) {
  std::set<std::string> regs;
  for (const auto& n : e.nodes)
    if (n.op == model::ExprOp::Reg) regs.insert(n.reg);
  return regs.size();
}

}  // namespace

std::optional<Allocation> fit_by_pressure(const SpecFacts& facts, const Options& options,
                                          const std::function<void(Allocation&)>& reuse) {
  auto mix = strategy_mix(facts, Strategy::PerLoop);  // every producer pair on its loop's semaphore
  Options o = options;
  o.strategy = Strategy::Mixed;
  // The dependencies that can go to barriers, by consumer engine and top-level statement.
  using Place = std::pair<model::EngineId, std::uint32_t>;
  std::map<Place, std::vector<std::size_t>> left;
  for (std::size_t k = 0; k < facts.analysis.deps.size(); ++k) {
    const auto& d = facts.analysis.deps[k];
    if (give_up_plan(facts, d)) left[{d.consumer_engine, top_statement(facts, d.consumer)}].push_back(k);
  }
  std::size_t given_up = 0;
  // First without loss, as the budget search does (allocator/budget.cpp): keep only registers
  // some wait reads, compute waits from counters directly, no shared or hoisted values, and the
  // paper's mask isgt(rh_S, 0) of offset-0 dependencies dropped (1 at every issue). One step
  // more per allocation while it does not fit; what gives up exactness comes after.
  int lossless = 0;
  bool engine_grouped = false;
  const auto next_lossless = [&] {
    switch (lossless++) {
      case 0: o.prune_registers = true; return true;
      case 1: o.direct_registers = true; return true;
      case 2: o.cse = false; return true;
      case 3: o.licm = false; return true;
      case 4:
        for (std::size_t k = 0; k < facts.analysis.deps.size(); ++k)
          if (const auto& d = facts.analysis.deps[k]; d.allocatable() && d.offset == 0) mix.unmasked.insert(k);
        return true;
      default: return false;
    }
  };
  for (int round = 0; round < kRounds + 5; ++round) {
    auto decided = decide_once(facts, o, &mix);
    if (!decided) return std::nullopt;
    auto a = std::move(*decided).finish();
    if (!a) return std::nullopt;
    reuse(*a);
    const auto usage = usage_of(a->impl, facts.ix);
    if (usage.fits(options)) {
      a->notes.push_back("budget: " + std::to_string(usage.registers_max()) + " of " +
                         std::to_string(options.max_registers) + " registers per engine (largest) with reuse" +
                         (o.prune_registers ? ", registers pruned" : "") + (!o.cse ? ", no CSE" : "") +
                         (!o.licm ? ", no LICM" : "") + (engine_grouped ? ", one semaphore per engine" : "") + ", in " +
                         std::to_string(round + 1) + " allocations; " + std::to_string(mix.boundaries.size()) +
                         " resetting barriers between top-level statements and " + std::to_string(given_up) +
                         " dependencies on barriers where the budget bit");
      add_fit_notes(*a, mix.boundaries);
      return std::move(*a);
    }
    if (usage.semaphores > options.max_semaphores) {
      // Too many semaphores live at once, even reused: resetting barriers between top-level
      // statements, every other one first, so that semaphores are recycled behind them (the
      // dependencies crossing one are then ordered by it, not exact); then one semaphore per
      // engine for every producer pair (exact, the per-engine decode); then the dependencies of
      // one producer engine at a time on barriers, the engine with the fewest first.
      bool added = false;
      for (const bool spaced : {true, false}) {
        for (std::uint32_t b = 1; b < facts.spec.body.size(); ++b)
          if (!mix.boundaries.count(b) && !(spaced && mix.boundaries.count(b - 1)) && boundary_allowed(facts, b)) {
            mix.boundaries.insert(b);
            added = true;
          }
        if (added) break;
      }
      if (added) continue;
      if (!engine_grouped) {
        for (auto& [pair, kind] : mix.pairs) kind = GroupKind::Engine;
        engine_grouped = true;
        continue;
      }
      std::map<model::EngineId, std::vector<std::size_t>> by_producer;
      for (const auto& d : a->decisions)
        if (!d.semaphore.empty() && !mix.given_up.contains(d.dep) && give_up_plan(facts, facts.dep(d.dep)))
          by_producer[facts.dep(d.dep).producer_engine].push_back(d.dep);
      if (by_producer.empty()) return std::nullopt;
      const auto fewest = std::min_element(by_producer.begin(), by_producer.end(), [](const auto& x, const auto& y) {
        return x.second.size() < y.second.size();
      });
      mix.given_up.insert(fewest->second.begin(), fewest->second.end());
      given_up += fewest->second.size();
      continue;
    }
    if (next_lossless()) continue;
    // Registers named by each dependency's wait: the ones naming most go first.
    std::vector<std::size_t> named(facts.analysis.deps.size(), 0);
    for (const auto& d : a->decisions)
      if (d.wait) named[d.dep] = registers_named(*d.wait);
    const auto live = analysis::register_liveness(a->impl, {.interference = false});
    const auto stands_for = spec_statement_of(a->impl, facts);
    std::set<Place> hot;
    for (model::EngineId e = 0; e < facts.ix.engines.size(); ++e) {
      if (usage.registers[e] <= options.max_registers) continue;
      const auto it =
          std::find_if(live.begin(), live.end(), [&](const auto& l) { return l.engine == facts.ix.engines[e]; });
      if (it == live.end()) continue;
      const auto& peaks = it->peak_by_statement;
      // Where the live registers pass the budget; when none does (the colouring used more cells
      // than are ever live at once), where they are most.
      const auto most = peaks.empty() ? 0u : *std::max_element(peaks.begin(), peaks.end());
      const auto bar = most > options.max_registers ? options.max_registers + 1 : most;
      for (std::size_t i = 0; i < peaks.size(); ++i)
        if (peaks[i] >= bar && stands_for[i]) hot.insert({e, *stands_for[i]});
    }
    bool more = false;
    // First a resetting barrier before each hot statement (recycling, docs/allocator.md
    // "Budgets"): what stays live across statements, a base register per chain of reused
    // semaphores and the counters it is computed from, dies there, and the barrier runs once.
    // A statement right after a barrier is left for a later round: one barrier often relieves
    // the statements after it too.
    std::set<std::uint32_t> statements;
    for (const auto& [e, s] : hot) statements.insert(s);
    for (const auto s : statements)
      if (s > 0 && !mix.boundaries.count(s) && !mix.boundaries.count(s - 1) && boundary_allowed(facts, s)) {
        mix.boundaries.insert(s);
        more = true;
      }
    if (more) continue;
    // Then half of the dependencies left there, on that engine, the ones naming most registers
    // first: they run barriers each iteration, so they come second.
    for (const auto& place : hot) {
      auto found = left.find(place);
      if (found == left.end() || found->second.empty()) continue;
      auto& deps = found->second;
      std::stable_sort(deps.begin(), deps.end(), [&](auto x, auto y) { return named[x] < named[y]; });
      const auto take = std::max<std::size_t>(1, (deps.size() + 1) / 2);
      for (std::size_t j = 0; j < take; ++j) {
        mix.given_up.insert(deps.back());
        deps.pop_back();
        ++given_up;
      }
      more = true;
    }
    if (!more) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace syncbisim::allocator
