#pragma once
// Static counts of a spec's loop bodies the closed forms need (paper §5.5 and §6.1): for every
// loop ℓ and engine E, N_ℓ(E) = the instructions of E directly in ℓ's body (nested loops not
// counted), the position K of each instruction among them, and where every statement sits in
// its parent's normalized body (consecutive blocks are one statement, docs/semantics.md §1).
#include <cstdint>
#include <vector>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::allocator {

struct LoopCounts {
  std::uint32_t stmt = 0;                          // statement index in the parent's body (a branch: its cond's)
  std::vector<std::uint32_t> n;                    // per engine: N_ℓ(E)
  std::vector<std::vector<std::uint32_t>> before;  // [statement][engine]: E's direct instrs in earlier statements
};

struct BodyCounts {
  std::vector<LoopCounts> loops;    // by LoopId
  std::vector<std::uint32_t> k;     // by InstrId: 1-based position among its engine's direct instrs of its parent
  std::vector<std::uint32_t> stmt;  // by InstrId: statement index in its parent's body

  // Statement index, in S's body, of the statement holding loop ℓ (ℓ strictly inside S).
  std::uint32_t stmt_in(const model::ProgramIndex& ix, model::LoopId l, model::LoopId S) const;
  // The same for an instruction inside S's subtree.
  std::uint32_t instr_stmt_in(const model::ProgramIndex& ix, model::InstrId i, model::LoopId S) const;
  // The child loop of S on the way down to ℓ (ℓ itself if its parent is S).
  static model::LoopId child_of(const model::ProgramIndex& ix, model::LoopId l, model::LoopId S);
};

// `spec` must be normalized and `ix` built from it.
BodyCounts count_bodies(const model::Program& spec, const model::ProgramIndex& ix);

}  // namespace syncbisim::allocator
