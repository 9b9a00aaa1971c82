#pragma once
// The expert's thresholds (paper §8.2, RQ3: the Manual variant "dedicates a register to each wait
// threshold and updates them once per iteration at the loop tail, sharing them across all waits in
// the body"; docs/allocator.md "The expert strategy"). A threshold X a consumer c on engine e
// compares against is given a register t of its own when some loop L around c satisfies:
//   * X reads a register of L or of a loop inside L (it varies with L's iterations: otherwise LICM
//     computes it once before a loop, which is cheaper);
//   * between the end of one iteration of L and c in the next, no register X reads changes except
//     L's own counters, which move by exactly one: X reads r_L, rh_L, registers of loops around L
//     or outside it, and registers of loops inside L whose statement in L's body comes after c's;
//     no snapshot ring of L (it moves at L's top) and no temporary.
// Then t := X' (X with r_L + 1 for r_L and rh_L + 1 for rh_L, the values the next iteration will
// read) is computed before L's statement (after rh_L := 0: the first iteration's value) and as the
// last item of every iteration body of L on e (the next iteration's), and c waits on t directly.
// Consumers of L on e with the same X share one t. The innermost such L is taken (the first one
// outward from c's parent loop for which X varies).
#include "allocator/names.h"
#include "allocator/plan.h"
#include "allocator/registers.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

// X with every register in `bumped` read as that register + 1, the + 1 folded into a constant it is
// compared with or subtracted from (isgt(r + 1, 0) is 1; the folds of expr_build.h).
model::Expr next_iteration(const model::Expr& x, const std::set<std::string>& bumped);

// Rewrites Plan::instrs[].wanted (before lower_waits) as above; returns how many threshold
// registers it introduced. `regs` must be finalized.
std::size_t tail_thresholds(const SpecFacts& facts, const Registers& regs, NameTable& names, Plan& plan);

}  // namespace syncbisim::allocator
