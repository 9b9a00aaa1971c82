#include "allocator/decide.h"

#include <algorithm>

#include "allocator/draft.h"
#include "allocator/expert.h"
#include "allocator/strategies.h"

namespace syncbisim::allocator {

DecidedAllocation::DecidedAllocation(std::unique_ptr<Draft> draft, bool prune, Reductions reductions,
                                     std::vector<std::uint32_t> recycling_barriers)
    : draft_(std::move(draft)),
      prune_(prune),
      reductions_(reductions),
      recycling_barriers_(std::move(recycling_barriers)) {}
DecidedAllocation::DecidedAllocation(DecidedAllocation&&) noexcept = default;
DecidedAllocation& DecidedAllocation::operator=(DecidedAllocation&&) noexcept = default;
DecidedAllocation::~DecidedAllocation() = default;

std::size_t DecidedAllocation::semaphores() const { return draft_->semaphore_count(); }

const std::vector<Decision>& DecidedAllocation::decisions() const { return draft_->decisions(); }

model::Result<Allocation> DecidedAllocation::finish() && {
  auto out = draft_->finish(prune_, reductions_);
  draft_.reset();
  if (out) out->recycling_barriers = std::move(recycling_barriers_);
  return out;
}

namespace {

// Per-engine decodes read the counter of every loop before the producer that holds the engine's
// instructions: past the register budget it cannot fit, and a kernel of thousands of nests makes
// every decode as long as the kernel. It then counts per top-level statement (strategies.h,
// CountedInstrs), and reuse (allocate.h) joins the statements' semaphores again.
bool segment_per_engine(const SpecFacts& facts, const Options& options) {
  if (options.reuse == Reuse::Never || facts.spec.body.size() < 2) return false;
  const auto& ix = facts.ix;
  for (model::EngineId e = 0; e < ix.engines.size(); ++e) {
    std::size_t loops = 0;
    for (model::LoopId l = 0; l < ix.loops.size(); ++l)
      loops += l != model::kTop && facts.counts.loops[l].n[e] > 0;
    if (loops > options.max_registers) return true;
  }
  return false;
}

}  // namespace

model::Result<DecidedAllocation> decide_once(const SpecFacts& facts, const Options& options, const Mix* mix) {
  const auto& spec = facts.spec;
  const Mix static_mix = expert_static_mix(facts);
  if (!mix && options.strategy == Strategy::Expert) mix = &static_mix;
  auto owned = std::make_unique<Draft>(facts);
  auto& draft = *owned;
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
        case Strategy::PerEngine: allocate_per_engine(facts, draft, loop_sems, ok, segment_per_engine(facts, options)); break;
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
  if (auto s = draft.close_decisions(); !s) return s.error();
  const Reductions reductions{options.licm, options.cse && !options.share_wait_values,
                              options.direct_registers || expert, expert};
  std::vector<std::uint32_t> recycling;
  if (mix) recycling.assign(mix->boundaries.begin(), mix->boundaries.end());
  return DecidedAllocation(std::move(owned), prune, reductions, std::move(recycling));
}

model::Result<Allocation> allocate_once(const SpecFacts& facts, const Options& options, const Mix* mix) {
  auto d = decide_once(facts, options, mix);
  if (!d) return d.error();
  return std::move(*d).finish();
}

}  // namespace syncbisim::allocator
