#pragma once
// The registers an allocation maintains, per engine:
//   r_ℓ  monotone (paper §5.1): +1 at every iteration start of ℓ, never reset;
//   rh_ℓ trip register (the paper's r̂_ℓ): reset to 0 just before ℓ in its parent, +1 at every
//        iteration start, so it counts iterations of the current trip;
//   snapshots (docs/allocator.md "Beyond the paper: every dependency without a barrier", its
//        snapshot rings): r_P recorded at the start of the current and earlier iterations of a
//        loop ℓ, in a ring as long as the oldest iteration some wait needs: at the top of ℓ's
//        body `q_n := q_(n-1) ... q_2 := q_1`, `q_1 := r_P`, so q_j holds r_P at the start of the
//        iteration j - 1 before the current one.
// @top is a loop that runs once: r_@top is the constant 1 and needs no register.
// Naming a register has no effect (a snapshot ring is declared when first named); a wait that
// reads registers records them with record_reads() when it is added (Draft::add_wait).
// finalize() then decides what to maintain: r_ℓ for every loop and rh_ℓ where a carried
// dependency has a non-zero offset, on every engine, as the paper does, plus the snapshot rings
// some wait reads (on every engine, as long as the longest read); or with pruning only the
// registers some wait on that engine reads, and what they are computed from.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "allocator/names.h"
#include "model/expr.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::allocator {

class Registers {
 public:
  Registers(const model::ProgramIndex& ix, NameTable& names);

  // r_ℓ (the constant 1 for @top).
  model::Expr r(model::LoopId l) const;
  // rh_ℓ. Never called for @top.
  model::Expr rh(model::LoopId l) const;
  // r_source at the start of the iteration of `loop` that is j - 1 iterations before the
  // current one (j >= 1). `loop` is not @top and not `source`.
  model::Expr snapshot(model::LoopId loop, model::LoopId source, std::uint32_t j);
  // paper §5.1: rh_S is kept only for loops that carry a dependency with offset k > 0.
  void want_trip_register(model::LoopId l) { trip_[l] = true; }
  bool has_trip_register(model::LoopId l) const { return l != model::kTop && trip_[l]; }
  // The loop whose iteration bodies (at their top, or just before the loop for rh) write a
  // maintained register; nothing for other names (temporaries).
  std::optional<model::LoopId> written_by(const std::string& name) const;
  // Marks the maintained registers `e` reads as read on `engine` (temporaries are ignored).
  void record_reads(const model::Expr& e, model::EngineId engine);

  // Fixes the maintained set. prune = keep only registers read by some wait (on that engine).
  void finalize(bool prune);
  bool keeps_r(model::LoopId l, model::EngineId e) const { return keep_r_[l][e]; }
  bool keeps_rh(model::LoopId l, model::EngineId e) const { return keep_rh_[l][e]; }
  const std::string& r_name(model::LoopId l) const { return r_names_[l]; }
  const std::string& rh_name(model::LoopId l) const { return rh_names_[l]; }
  // The register operations at the top of `l`'s iteration body on `e` that move its snapshot
  // rings (before the counters r_l, rh_l are incremented).
  std::vector<model::RegOp> ring_updates(model::LoopId l, model::EngineId e) const;

 private:
  struct Ring {
    model::LoopId loop = 0, source = 0;
    std::vector<std::string> names;         // q_1, q_2, ... as named so far
    std::vector<std::uint32_t> read, keep;  // per engine: the longest q_j read, kept
  };
  const model::ProgramIndex* ix_;
  NameTable* names_;
  std::vector<std::string> r_names_, rh_names_;
  std::vector<Ring> rings_;
  // name -> what it is: (0 = r, 1 = rh, 2 = ring), loop or ring index, j
  std::map<std::string, std::tuple<int, std::size_t, std::uint32_t>> by_name_;
  std::vector<bool> trip_;
  std::vector<std::vector<bool>> read_r_, read_rh_, keep_r_, keep_rh_;
};

}  // namespace syncbisim::allocator
