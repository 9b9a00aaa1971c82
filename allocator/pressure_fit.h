#pragma once
// A register budget below what the kernel needs at its busiest point, with reuse by liveness
// (docs/allocator.md "Budgets", "Below the peak"): only where the budget bites do dependencies go
// to barriers. Per-loop, reused, is allocated; on each engine over the budget, the top-level
// statements whose live registers pass it (register_liveness' peak per statement) give up half of
// their remaining dependencies on that engine, the ones whose waits name the most registers
// first, and the whole is allocated again. A bounded number of rounds, each one allocation: time
// linear in the kernel, where a search over candidates re-allocates once per candidate.
#include <functional>
#include <optional>

#include "allocator/allocate.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

// `reuse` rewrites an allocation by liveness and notes it. Nothing when this way finds no fit
// (semaphores over the budget after reuse, no dependency left to give up where it bites, or the
// rounds spent): the budget search then goes on as before.
std::optional<Allocation> fit_by_pressure(const SpecFacts& facts, const Options& options,
                                          const std::function<void(Allocation&)>& reuse);

}  // namespace syncbisim::allocator
