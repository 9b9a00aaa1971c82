#pragma once
// Lowering the waits the strategies asked for into register operations, with paper §6.2's ALU
// reductions (docs/allocator.md "ALU reductions"):
//   loop-invariant code motion: a part of a threshold that no register written inside an
//     enclosing loop of the consumer reads is computed once, before that loop's statement, into
//     a register (partial sums and mask factors are regrouped by the loop they can leave, so an
//     outer loop's share of a decode is a cached partial sum);
//   common-subexpression elimination: consumers of one straight-line region of one engine
//     share every subexpression they have in common (masks, partial sums, whole thresholds),
//     and equal hoisted values before one loop statement share one register.
// Neither changes what any threshold evaluates to at its consumer: the registers it reads hold
// the same values there (nothing in between writes them).
#include "allocator/names.h"
#include "allocator/plan.h"
#include "allocator/registers.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

struct Reductions {
  bool licm = true;
  bool cse = true;
  // A threshold that is a single maintained register (r_P, a snapshot) is waited on as it is,
  // without a temporary: one register less per engine (used under a register budget; the
  // default keeps the paper's `[w := r_P] {s >= w}`).
  bool direct = false;
  // The expert's thresholds in registers updated at loop tails (tail_thresholds.h), before LICM.
  bool tail_thresholds = false;
};

// Turns every InstrPlan::wanted into InstrPlan::pre / waits and LoopPlan::hoisted. `regs` must
// be finalized. A constant threshold becomes a constant wait; without reductions every other
// threshold is computed right before its consumer into w, w2, ... (paper Figure 7).
void lower_waits(const SpecFacts& facts, const Registers& regs, NameTable& names, Plan& plan,
                 const Reductions& reductions);

}  // namespace syncbisim::allocator
