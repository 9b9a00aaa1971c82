#pragma once
// Fitting an allocation into a semaphore and a register budget (docs/allocator.md "Budgets"):
// first exactly, with the least ALU work per issue (merging per-instruction semaphores into
// per-loop and per-engine ones), then, below what exactness allows, in the cheapest safe ways:
// recycling semaphores across top-level phases behind a resetting barrier, dropping masks,
// leaving dependencies to barriers. Every step is re-allocated and measured: by its decisions
// (semaphores, ALU, barriers; allocator/decide.h) or, for registers, from the finished impl.
#include <set>

#include "allocator/allocate.h"
#include "allocator/decide.h"
#include "allocator/mixed.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

// The semaphores the impl declares and the registers each engine uses (allocator::Stats).
struct Usage {
  std::size_t semaphores = 0;
  std::vector<std::size_t> registers;  // per engine
  std::size_t registers_max() const;
  bool fits(const Options& o) const;
};
Usage usage_of(const model::Program& impl, const model::ProgramIndex& spec_ix);

// The notes every budget fit ends with: the recycling barriers before top-level statements
// `boundaries` (when any), and the dependencies whose decisions are not exact, named.
void add_fit_notes(Allocation& a, const std::set<std::uint32_t>& boundaries);

// `strategy`'s assignment as a mix: per-instruction and mixed every producer its own
// semaphore, per-engine every producer pair its engine's, the others every pair its loop's.
Mix strategy_mix(const SpecFacts& facts, Strategy strategy);

// The strategy's assignment as a mix (per-instruction: own; per-loop and auto: loop; per-engine:
// engine; mixed: own), then fitted. Notes say what the budget cost.
model::Result<Allocation> fit_budget(const SpecFacts& facts, const Options& options);

}  // namespace syncbisim::allocator
