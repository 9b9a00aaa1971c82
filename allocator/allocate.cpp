#include "allocator/allocate.h"

#include <algorithm>

#include "allocator/budget.h"
#include "allocator/decide.h"
#include "allocator/expert.h"
#include "allocator/pressure_fit.h"
#include "allocator/register_reuse.h"
#include "allocator/semaphore_reuse.h"
#include "allocator/share_waits.h"
#include "allocator/spec_facts.h"
#include "analysis/correspondence.h"

namespace syncbisim::allocator {

const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::Barrier: return "barrier";
    case Strategy::PerInstruction: return "per-instruction";
    case Strategy::PerLoop: return "per-loop";
    case Strategy::PerEngine: return "per-engine";
    case Strategy::Auto: return "auto";
    case Strategy::Mixed: return "mixed";
    case Strategy::Expert: return "expert";
  }
  return "?";
}

const char* to_string(Scheme s) {
  switch (s) {
    case Scheme::PerInstruction: return "per-instruction";
    case Scheme::PerLoop: return "per-loop";
    case Scheme::PerEngine: return "per-engine";
    case Scheme::Barrier: return "barrier";
    case Scheme::Fallback: return "fallback";
    case Scheme::NoWait: return "no-wait";
  }
  return "?";
}

const char* to_string(Reuse r) {
  switch (r) {
    case Reuse::Auto: return "auto";
    case Reuse::Always: return "always";
    case Reuse::Never: return "never";
  }
  return "?";
}

std::optional<Reuse> parse_reuse(const std::string& s) {
  for (auto r : {Reuse::Auto, Reuse::Always, Reuse::Never})
    if (s == to_string(r)) return r;
  return std::nullopt;
}

std::optional<Strategy> parse_strategy(const std::string& s) {
  for (auto st : all_strategies())
    if (s == to_string(st)) return st;
  return std::nullopt;
}

std::vector<Strategy> all_strategies() {
  return {Strategy::Barrier, Strategy::PerInstruction, Strategy::PerLoop, Strategy::PerEngine,
          Strategy::Auto,    Strategy::Mixed,          Strategy::Expert};
}

std::string strategy_names() {
  std::string s;
  for (auto st : all_strategies()) s += (s.empty() ? "" : ", ") + std::string(to_string(st));
  return s;
}

std::string Decision::to_string() const {
  std::string s = label + ": " + allocator::to_string(scheme);
  if (!semaphore.empty()) s += " " + semaphore;
  if (!detail.empty()) s += " " + detail;
  if (wait) s += ", wait " + semaphore + " >= " + wait->to_string();
  return s;
}

bool Allocation::exact() const {
  return recycling_barriers.empty() &&
         std::all_of(decisions.begin(), decisions.end(), [](const Decision& d) { return d.exact; });
}

namespace {

// The strategy's own allocation; when its decisions already declare more semaphores than the
// budget, straight to the fit (which then starts from the same assignment): finishing an
// allocation that cannot be kept is most of its cost (100,000 semaphores per-instruction on
// one long block). Its impl would declare the same semaphores, so the outcome is the same.
struct Outcome {
  model::Result<Allocation> allocation;
  bool fitted;  // by fit_budget, which returns only allocations within the budget
};

Outcome once_unless_over(const SpecFacts& facts, const Options& options) {
  auto d = decide_once(facts, options, nullptr);
  if (!d) return {d.error(), false};
  // Reuse can bring a kernel of several top-level statements within the budget: finish it.
  const bool reuse_may_fit = options.reuse != Reuse::Never && facts.spec.body.size() > 1;
  if (options.strategy != Strategy::Barrier && d->semaphores() > options.max_semaphores && !reuse_may_fit)
    return {fit_budget(facts, options), true};
  return {std::move(*d).finish(), false};
}

// Registers and semaphores by liveness, when asked (docs/allocator.md "Reusing registers and
// semaphores"). The impl behaves as before, so the decisions keep their exactness; those whose
// semaphore joined another say so.
void reuse_by_liveness(Allocation& a, const model::ProgramIndex& ix, const Options& options) {
  if (options.reuse == Reuse::Never) return;
  // (Semaphores first: over them, the registers need not be counted.)
  if (options.reuse == Reuse::Auto && a.impl.semaphores.size() <= options.max_semaphores &&
      usage_of(a.impl, ix).fits(options))
    return;
  const auto sems = reuse_semaphores(a.impl);
  const auto regs = reuse_registers(a.impl, options.jobs);
  for (auto& d : a.decisions)
    if (auto it = sems.joined.find(d.semaphore); it != sems.joined.end()) {
      d.detail +=
          (d.detail.empty() ? "" : ", ") + std::string("counted on ") + it->second + " after its earlier signals";
    }
  a.notes.push_back("reused by liveness: " + std::to_string(sems.before) + " -> " + std::to_string(sems.after) +
                    " semaphores, " + std::to_string(regs.before) + " -> " + std::to_string(regs.after) +
                    " registers on the largest engine");
}

model::Result<Allocation> checked(const SpecFacts& facts, Allocation&& a, const Options& options);

// Past this many dependencies the budget search is not run after the fit by pressure: its
// candidates cost a re-allocation each, round after round (docs/allocator.md "Budgets").
constexpr std::size_t kSearchedBelowPeak = 64;

std::size_t inexact_count(const Allocation& a) {
  return static_cast<std::size_t>(
      std::count_if(a.decisions.begin(), a.decisions.end(), [](const Decision& d) { return !d.exact; }));
}

// `strategy`'s allocation, reused by liveness, when it then fits the budget; with `only_over`,
// only when it did not fit before reuse (a fitting one is left to the caller's usual path).
std::optional<Allocation> fitting_with_reuse(const SpecFacts& facts, Options o, Strategy strategy, bool only_over) {
  o.strategy = strategy;
  auto d = decide_once(facts, o, nullptr);
  if (!d) return std::nullopt;
  auto a = std::move(*d).finish();
  if (!a || (only_over && usage_of(a->impl, facts.ix).fits(o))) return std::nullopt;
  reuse_by_liveness(*a, facts.ix, o);
  if (!usage_of(a->impl, facts.ix).fits(o)) return std::nullopt;
  return std::move(*a);
}

}  // namespace

std::optional<Strategy> same_allocation_as(const SpecFacts& facts, const Options& options) {
  if (options.strategy == Strategy::Auto) return Strategy::PerLoop;
  if (options.strategy != Strategy::PerInstruction) return std::nullopt;
  auto d = decide_once(facts, options, nullptr);
  // as once_unless_over(): straight to the fit, unless reuse may bring it within the budget
  const bool reuse_may_fit = options.reuse != Reuse::Never && facts.spec.body.size() > 1;
  if (d && d->semaphores() > options.max_semaphores && !reuse_may_fit) return Strategy::Mixed;
  return std::nullopt;
}

model::Result<Allocation> allocate(const model::Program& spec, const model::ProgramIndex& ix, const Options& options) {
  if (spec.kind != model::ProgramKind::Spec)
    return model::make_error("", "wrong-kind", "allocate needs a spec program");
  const SpecFacts facts(spec, ix);
  return allocate(facts, options);
}

model::Result<Allocation> allocate(const SpecFacts& facts, const Options& options) {
  const auto& spec = facts.spec;
  const auto& ix = facts.ix;
  if (spec.kind != model::ProgramKind::Spec)
    return model::make_error("", "wrong-kind", "allocate needs a spec program");
  // Mixed starts its search from per-instruction (docs/allocator.md "Budgets"): with reuse that
  // start may already fit, and the search (a re-allocation per candidate) is not needed.
  if (options.strategy == Strategy::Mixed && options.reuse != Reuse::Never && facts.spec.body.size() > 1)
    if (auto a = fitting_with_reuse(facts, options, Strategy::PerInstruction, true)) {
      a->notes.push_back("mixed: its start, every producer on its own semaphore, fits the budget with reuse");
      return checked(facts, std::move(*a), options);
    }
  auto outcome = options.strategy == Strategy::Mixed    ? Outcome{fit_budget(facts, options), true}
                 : options.strategy == Strategy::Expert ? Outcome{allocate_expert(facts, options), false}
                                                        : once_unless_over(facts, options);
  auto out = std::move(outcome.allocation);
  const bool fitted = outcome.fitted;
  if (!out) return out;
  if (!fitted || options.reuse == Reuse::Always) reuse_by_liveness(*out, ix, options);
  if (!fitted && !usage_of(out->impl, ix).fits(options)) {
    if (options.strategy == Strategy::Barrier)
      return model::make_error("", "over-budget",
                               "the barrier baseline needs " + std::to_string(out->impl.semaphores.size()) +
                                   " semaphores (one per engine) and cannot share them; --max-semaphores is " +
                                   std::to_string(options.max_semaphores));
    // Per-loop reuses best (its semaphores and registers die with their loop nest): when the
    // strategy asked for does not fit even with reuse, per-loop with reuse (every producer pair
    // on its loop's semaphore, one of the mixes the budget fit searches) is tried whole before
    // the search, which costs a re-allocation per candidate.
    if (options.reuse != Reuse::Never && options.strategy != Strategy::PerLoop && options.strategy != Strategy::Auto)
      if (auto a = fitting_with_reuse(facts, options, Strategy::PerLoop, false)) {
        a->notes.push_back(std::string(to_string(options.strategy)) +
                           " does not fit the budget even with reuse: per-loop with reuse does");
        return checked(facts, std::move(*a), options);
      }
    // Below the peak: dependencies to barriers only where the live registers pass the budget, in
    // a bounded number of allocations. Exact, or a kernel too large for the search (one
    // re-allocation per candidate, round after round): kept. Otherwise the search runs too and
    // the one with fewer dependencies not exact is kept.
    std::optional<Allocation> pressed;
    if (options.reuse != Reuse::Never && facts.spec.body.size() > 1)
      pressed = fit_by_pressure(facts, options, [&](Allocation& x) {
        Options always = options;
        always.reuse = Reuse::Always;
        reuse_by_liveness(x, ix, always);
      });
    if (pressed && (pressed->exact() || facts.analysis.deps.size() > kSearchedBelowPeak))
      return checked(facts, std::move(*pressed), options);
    out = fit_budget(facts, options);
    if (pressed && (!out || inexact_count(*pressed) < inexact_count(*out)))
      return checked(facts, std::move(*pressed), options);
    if (!out) return out;
  }
  return checked(facts, std::move(*out), options);
}

namespace {

// Shares wait values when asked, then checks the impl: a valid program that corresponds to the
// spec, anything else being our bug.
model::Result<Allocation> checked(const SpecFacts& facts, Allocation&& a, const Options& options) {
  const auto& spec = facts.spec;
  const auto& ix = facts.ix;
  auto out = model::Result<Allocation>(std::move(a));
  if (options.share_wait_values)
    if (const auto n = share_wait_values(out->impl); n > 0)
      out->notes.push_back(std::to_string(n) + " subexpressions of wait values shared (paper §6.2)");
  auto impl_ix = model::ProgramIndex::build(out->impl);
  if (!impl_ix) return model::make_error("", "allocator-bug", "emitted impl is invalid: " + impl_ix.error().message);
  if (auto s = analysis::check_correspondence(spec, ix, out->impl, *impl_ix); !s)
    return model::make_error("", "allocator-bug", "emitted impl does not correspond: " + s.error().message);
  return out;
}

}  // namespace

}  // namespace syncbisim::allocator
