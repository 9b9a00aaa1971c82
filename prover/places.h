#pragma once
// Where things sit in an impl's statement tree, in the terms the prover's closed forms need
// (docs/prover.md "Points"): every loop's body as a list of statements, every loop's statement
// index in its parent's (normalized) body, and every register operation, barrier and
// instruction's loop, statement and place in its engine's stream. Consecutive blocks count as one
// statement (docs/semantics.md §1), so an engine's items of one straight-line region are totally
// ordered by `item`.
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

struct BarrierPlace {
  model::EngineId engine = 0;
  Place at;
  std::optional<std::vector<std::string>> reset;  // absent: every semaphore
};

// One item of an engine's stream in a block statement.
struct ItemRef {
  enum class Kind : std::uint8_t { Instr, Write, Barrier };
  Kind kind = Kind::Instr;
  std::uint32_t index = 0;  // InstrId, index into writes(), index into barriers()
};

inline bool is_barrier(const ItemRef& it) { return it.kind == ItemRef::Kind::Barrier; }

// A statement of a loop body: a block (per engine its items) or a loop statement (one loop, or a
// cond's two branch loops).
struct BodyStmt {
  bool block = true;
  std::vector<std::vector<ItemRef>> items;  // block: per engine
  std::vector<model::LoopId> loops;         // loop statement: the loop, or then and else
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

  const std::vector<BodyStmt>& body(model::LoopId l) const { return bodies_[l]; }
  const std::vector<RegWrite>& writes() const { return writes_; }
  const std::vector<BarrierPlace>& barriers() const { return barriers_; }
  const InstrPlace& instr(model::InstrId i) const { return instrs_[i]; }
  bool has_barrier() const { return !barriers_.empty(); }
  // Does loop l's subtree hold an item of `engine` that `pick` selects?
  template <class Pick>
  bool subtree_has(model::LoopId l, model::EngineId engine, Pick pick) const {
    for (const auto& st : bodies_[l]) {
      if (st.block) {
        for (const auto& it : st.items[engine])
          if (pick(it)) return true;
      } else {
        for (auto m : st.loops)
          if (subtree_has(m, engine, pick)) return true;
      }
    }
    return false;
  }
  // Every block holds the same number of barriers on every engine
  // (docs/prover.md "Impl side (`impl_side.cpp`)"): then the k-th release of a run frees every
  // engine from its k-th barrier of the walk. Empty when aligned; otherwise what breaks it, in
  // words.
  const std::string& barrier_misalignment() const { return misaligned_; }

 private:
  model::ProgramIndex ix_;
  std::vector<std::uint32_t> loop_stmt_;
  std::vector<std::vector<BodyStmt>> bodies_;
  std::vector<RegWrite> writes_;
  std::vector<BarrierPlace> barriers_;
  std::vector<InstrPlace> instrs_;
  std::string misaligned_;
  friend struct PlacesBuilder;
};

}  // namespace syncbisim::prover
