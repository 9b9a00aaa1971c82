#pragma once
// What an allocation adds to the spec tree, before it is written out as an impl program:
// per instruction its signal, its waits and the register operations computing their values;
// per loop the register maintenance (registers.h) and barriers before the loop statement and at
// the end of each iteration body. emit_impl() walks the spec tree once and produces the impl.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "allocator/registers.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::allocator {

// A wait as a strategy asked for it: `sem >= threshold`, the threshold over the consumer
// engine's registers. lower_waits() (reductions.h) turns these into waits and register operations.
struct WantedWait {
  std::string sem;
  model::Expr threshold;
};

struct InstrPlan {
  std::optional<model::Signal> signal;
  std::vector<WantedWait> wanted;  // in the order the strategies added them
  std::vector<model::RegOp> pre;   // [w := ...] right before the instruction
  std::vector<model::Wait> waits;
};

struct LoopPlan {
  std::optional<model::Barrier> before;  // in the parent's body, before the loop/cond statement
  std::optional<model::Barrier> at_end;  // at the end of every iteration body (every branch body)
  // Per engine, values computed once before the loop/cond statement (after the rh resets) and
  // read inside it (loop-invariant code motion, reductions.h).
  std::vector<std::vector<model::RegOp>> hoisted;
  // Per engine, register operations at the end of every iteration body, after its last statement
  // and before the end barrier (the expert's thresholds for the next iteration, tail_thresholds.h).
  std::vector<std::vector<model::RegOp>> tail;
};

struct Plan {
  std::vector<InstrPlan> instrs;  // by InstrId of the spec
  std::vector<LoopPlan> loops;    // by LoopId of the spec
  std::vector<std::string> semaphores;
  // A barrier on every engine before statement i of loop l's (normalized) body: {l, i} -> it.
  std::map<std::pair<model::LoopId, std::uint32_t>, model::Barrier> stmt_barriers;
  // Barriers inside a straight-line region (analysis::BodyLayout::regions), in order: per
  // engine, how many of that engine's instructions of the region come before each.
  std::map<std::uint32_t, std::vector<std::vector<std::uint32_t>>> cuts;
  // Registers (not maintained loop registers) a wait reads as they are, without a temporary:
  // the expert's shared thresholds (tail_thresholds.h).
  std::set<std::string> direct;

  Plan(const model::ProgramIndex& ix) : instrs(ix.instrs.size()), loops(ix.loops.size()) {
    for (auto& l : loops) {
      l.hoisted.resize(ix.engines.size());
      l.tail.resize(ix.engines.size());
    }
  }
};

// Two barriers asked for at one place are one barrier resetting what either resets.
model::Barrier merge(const model::Barrier& a, const model::Barrier& b);

// The impl program (kind Impl, trips copied from the spec, normalized). `regs` must be finalized;
// the plan is used up (its instructions' waits and register operations move into the impl).
model::Program emit_impl(const model::Program& spec, const model::ProgramIndex& ix, Plan&& plan,
                         const Registers& regs);

}  // namespace syncbisim::allocator
