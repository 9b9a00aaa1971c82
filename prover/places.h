#pragma once
// Where things sit in an impl's statement tree, in the terms the prover's closed forms need
// (docs/prover.md "Impl side"): every loop's parent and its statement index in the parent's
// (normalized) body, and every register operation and instruction's loop, statement and place
// in its engine's stream. Consecutive blocks count as one statement (docs/semantics.md §1), so an
// engine's items of one straight-line region are totally ordered by `item`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/expr.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::prover {

struct Place {
  model::LoopId loop = model::kTop;  // the innermost loop around it
  std::uint32_t stmt = 0;            // statement of that loop's body holding it
  std::uint32_t item = 0;            // position in its engine's stream of that statement
};

struct RegWrite {
  model::EngineId engine = 0;
  std::string dst;
  model::Expr expr;
  Place at;
};

struct InstrPlace {
  model::EngineId engine = 0;
  Place at;
  std::vector<model::Wait> waits;
  std::optional<model::Signal> signal;
};

// Comparison of two places inside one loop's body.
enum class Order : std::uint8_t { Before, After, SameStatement };

class Places {
 public:
  // `p` normalized (loaders give that) and `ix` built from it.
  static Places build(const model::Program& p, const model::ProgramIndex& ix);

  const model::ProgramIndex& index() const { return ix_; }
  model::LoopId parent(model::LoopId l) const { return ix_.loops[l].parent; }
  // Statement index of `l` in its parent's body (both branch loops of a cond share one).
  std::uint32_t stmt_of(model::LoopId l) const { return loop_stmt_[l]; }
  // Statement of `a`'s body holding `x` (x must lie in a's subtree).
  std::uint32_t stmt_in(model::LoopId a, const Place& x) const;
  std::uint32_t stmt_in(model::LoopId a, model::LoopId l) const;
  // x relative to y in a's body; both lie in a's subtree. Items of one stream are compared by
  // position (callers only compare items of one engine).
  Order order_in(model::LoopId a, const Place& x, const Place& y) const;

  const std::vector<RegWrite>& writes() const { return writes_; }
  const InstrPlace& instr(model::InstrId i) const { return instrs_[i]; }
  bool has_barrier() const { return barrier_; }

 private:
  model::ProgramIndex ix_;
  std::vector<std::uint32_t> loop_stmt_;
  std::vector<RegWrite> writes_;
  std::vector<InstrPlace> instrs_;
  bool barrier_ = false;
  friend struct PlacesBuilder;
};

}  // namespace syncbisim::prover
