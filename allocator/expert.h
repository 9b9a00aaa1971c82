#pragma once
// The expert strategy (GitHub issue 16 part 5; paper §8.2, RQ3, the Manual variant; docs/allocator.md
// "The expert strategy"). Where the paper's developer hand-places semaphores, this strategy makes
// the same three moves and leaves the result to the checker like every other strategy:
//   * dedicated semaphores: per producer pair (parent loop, engine) its producers either share one
//     semaphore, decoded by paper (4) over the pair's producers (N * count - (N - K)), or get one
//     each (no decode). With a judge (Options::judge, the timing model's makespan) a pair keeps
//     dedicated semaphores only where sharing makes the program slower, i.e. where the decode sits
//     on an engine busy enough to be on the critical path; without one every pair with two or more
//     producers gets dedicated semaphores (no decode anywhere).
//   * only producers signal, and only semaphores something waits on are declared (per-loop declares
//     one per (loop, engine) pair with instructions, paper Figure 8);
//   * thresholds in registers updated once per iteration at the loop's tail and shared by the waits
//     that need them (tail_thresholds.h), and waits that compare a semaphore with a register the
//     kernel already keeps (a loop counter, a shared threshold) read it directly, no temporary.
#include "allocator/allocate.h"
#include "allocator/mixed.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

// The static choice: every pair of producers its own semaphores (absent from Mix::pairs), and no
// mask on the dependencies of offset 0 (isgt(rh_S, 0) is 1 at every issue).
Mix expert_static_mix(const SpecFacts& facts);

// The expert's allocation of `facts` (options.strategy is Expert). Not yet validated against the spec
// (allocate() does that, and fits the budget).
model::Result<Allocation> allocate_expert(const SpecFacts& facts, const Options& options);

}  // namespace syncbisim::allocator
