#pragma once
// One allocation in two steps. Deciding: the strategy (or a mix) gives every dependency its
// scheme, semaphore and wait value, and declares the semaphores. Finishing: the maintained
// registers are fixed, the waits lowered with the ALU reductions (paper §6.2) and the impl
// emitted, most of the cost at scale. A budget trial that is judged by its semaphores and
// decisions alone (allocator/budget.h) is only decided; the one kept is finished.
#include <cstdint>
#include <memory>
#include <vector>

#include "allocator/allocate.h"
#include "allocator/mixed.h"
#include "allocator/reductions.h"
#include "allocator/spec_facts.h"
#include "model/result.h"

namespace syncbisim::allocator {

class Draft;

class DecidedAllocation {
 public:
  DecidedAllocation(std::unique_ptr<Draft> draft, bool prune, Reductions reductions,
                    std::vector<std::uint32_t> recycling_barriers);
  DecidedAllocation(DecidedAllocation&&) noexcept;
  DecidedAllocation& operator=(DecidedAllocation&&) noexcept;
  ~DecidedAllocation();

  // The semaphores the finished impl declares (finishing declares none).
  std::size_t semaphores() const;
  // One per dependency, in Program::deps order: those the finished allocation has.
  const std::vector<Decision>& decisions() const;
  // Lowers and emits (once: the decided allocation is used up).
  model::Result<Allocation> finish() &&;

 private:
  std::unique_ptr<Draft> draft_;  // on the heap: a Draft's parts refer to each other
  bool prune_;
  Reductions reductions_;
  std::vector<std::uint32_t> recycling_barriers_;
};

// The strategy of `options`, or `mix` when given (then for every dependency), decided. Not yet
// validated against the spec.
model::Result<DecidedAllocation> decide_once(const SpecFacts& facts, const Options& options, const Mix* mix);

// decide_once, then finish.
model::Result<Allocation> allocate_once(const SpecFacts& facts, const Options& options, const Mix* mix);

}  // namespace syncbisim::allocator
