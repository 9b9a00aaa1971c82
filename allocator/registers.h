#pragma once
// The two register families of paper §5.1, per loop ℓ and per engine:
//   r_ℓ  monotone: +1 at every iteration start of ℓ, never reset;
//   rh_ℓ trip register (the paper's r̂_ℓ): reset to 0 just before ℓ in its parent, +1 at every
//        iteration start, so it counts iterations of the current trip.
// @top is a loop that runs once: r_@top is the constant 1 and needs no register.
// Naming a register (r(), rh()) has no effect; a wait that reads registers records them with
// record_reads() when it is added (Draft::add_wait). finalize() then decides what to maintain:
// everything the paper maintains (r_ℓ for every loop, rh_ℓ where a carried dependency has a
// non-zero offset, on every engine), or with pruning only the registers some wait reads.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "allocator/names.h"
#include "model/expr.h"
#include "model/index.h"

namespace syncbisim::allocator {

class Registers {
 public:
  Registers(const model::ProgramIndex& ix, NameTable& names);

  // r_ℓ (the constant 1 for @top).
  model::Expr r(model::LoopId l) const;
  // rh_ℓ. Never called for @top.
  model::Expr rh(model::LoopId l) const;
  // paper §5.1: rh_S is kept only for loops that carry a dependency with offset k > 0.
  void want_trip_register(model::LoopId l) { trip_[l] = true; }
  bool has_trip_register(model::LoopId l) const { return l != model::kTop && trip_[l]; }
  // Marks the loop registers `e` reads as read on `engine` (other registers are ignored).
  void record_reads(const model::Expr& e, model::EngineId engine);

  // Fixes the maintained set. prune = keep only registers read by some wait (on that engine).
  void finalize(bool prune);
  bool keeps_r(model::LoopId l, model::EngineId e) const { return keep_r_[l][e]; }
  bool keeps_rh(model::LoopId l, model::EngineId e) const { return keep_rh_[l][e]; }
  const std::string& r_name(model::LoopId l) const { return r_names_[l]; }
  const std::string& rh_name(model::LoopId l) const { return rh_names_[l]; }

 private:
  const model::ProgramIndex* ix_;
  std::vector<std::string> r_names_, rh_names_;
  std::map<std::string, std::pair<model::LoopId, bool>> by_name_;  // name -> (loop, is rh)
  std::vector<bool> trip_;
  std::vector<std::vector<bool>> read_r_, read_rh_, keep_r_, keep_rh_;
};

}  // namespace syncbisim::allocator
