#include "allocator/allocate.h"

#include <algorithm>

#include "allocator/budget.h"
#include "allocator/draft.h"
#include "allocator/expert.h"
#include "allocator/share_waits.h"
#include "allocator/spec_facts.h"
#include "allocator/strategies.h"
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

model::Result<Allocation> allocate_once(const SpecFacts& facts, const Options& options, const Mix* mix) {
  const auto& spec = facts.spec;
  const Mix static_mix = expert_static_mix(facts);
  if (!mix && options.strategy == Strategy::Expert) mix = &static_mix;
  Draft draft(facts);
  for (const auto& dl : facts.analysis.deadlocks) draft.note("spec deadlock: " + dl.message);

  bool prune = options.prune_registers;
  if (options.strategy == Strategy::Barrier) {
    allocate_barrier_baseline(facts, draft);
    prune = true;  // the baseline adds no registers
  } else {
    std::vector<std::size_t> ok, fallback;
    for (std::size_t d = 0; d < spec.deps.size(); ++d)
      (facts.dep(d).allocatable() || !options.barrier_fallback ? ok : fallback).push_back(d);
    // paper §5.1: rh_S only for loops carrying a dependency with offset k > 0
    for (auto d : ok)
      if (facts.dep(d).allocatable() && facts.dep(d).offset > 0) draft.registers().want_trip_register(facts.dep(d).S);
    LoopSemaphores loop_sems(facts, draft);
    if (mix) {
      allocate_mixed(facts, draft, ok, *mix);
    } else {
      switch (options.strategy) {
        case Strategy::PerInstruction: allocate_per_instruction(facts, draft, ok); break;
        case Strategy::PerEngine: allocate_per_engine(facts, draft, loop_sems, ok); break;
        default:
          loop_sems.declare_all();
          allocate_per_loop(facts, draft, loop_sems, ok);
          break;
      }
    }
    allocate_fallback(facts, draft, fallback);
    if (!fallback.empty())
      draft.note(std::to_string(fallback.size()) +
                 " dependencies are not allocatable (paper §5.2) and use non-resetting barriers");
    std::size_t extended = 0;
    for (auto d : ok) extended += !facts.dep(d).allocatable();
    if (extended > 0)
      draft.note(std::to_string(extended) +
                 " dependencies are outside paper §5.2 and use the extended closed forms (docs/allocator.md)");
  }
  // --share-waits does the CSE at the stream level, and better (it distributes masks first, so the
  // decodes of one body share mask * N * r): the draft's own CSE would leave it nothing to share.
  // The expert (expert.h) waits on single registers directly and keeps its thresholds in registers
  // updated at loop tails.
  const bool expert = options.strategy == Strategy::Expert;
  auto out = draft.finish(prune, Reductions{options.licm, options.cse && !options.share_wait_values,
                                            options.direct_registers || expert, expert});
  if (out && mix) out->recycling_barriers.assign(mix->boundaries.begin(), mix->boundaries.end());
  return out;
}

bool Allocation::exact() const {
  return recycling_barriers.empty() &&
         std::all_of(decisions.begin(), decisions.end(), [](const Decision& d) { return d.exact; });
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
  auto out = options.strategy == Strategy::Mixed    ? fit_budget(facts, options)
             : options.strategy == Strategy::Expert ? allocate_expert(facts, options)
                                                    : allocate_once(facts, options, nullptr);
  if (!out) return out;
  if (!usage_of(out->impl, ix).fits(options)) {
    if (options.strategy == Strategy::Barrier)
      return model::make_error("", "over-budget",
                               "the barrier baseline needs " + std::to_string(out->impl.semaphores.size()) +
                                   " semaphores (one per engine) and cannot share them; --max-semaphores is " +
                                   std::to_string(options.max_semaphores));
    out = fit_budget(facts, options);
    if (!out) return out;
  }
  if (options.share_wait_values)
    if (const auto n = share_wait_values(out->impl); n > 0)
      out->notes.push_back(std::to_string(n) + " subexpressions of wait values shared (paper §6.2)");
  // The impl must be a valid program that corresponds to the spec: anything else is our bug.
  auto impl_ix = model::ProgramIndex::build(out->impl);
  if (!impl_ix) return model::make_error("", "allocator-bug", "emitted impl is invalid: " + impl_ix.error().message);
  if (auto s = analysis::check_correspondence(spec, ix, out->impl, *impl_ix); !s)
    return model::make_error("", "allocator-bug", "emitted impl does not correspond: " + s.error().message);
  return out;
}

}  // namespace syncbisim::allocator
