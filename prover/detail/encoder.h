#pragma once
// The Z3 encoding of one consumer's obligation (docs/prover.md). Internal: only
// prover/*.cpp include this header (and with it z3++.h).
#include <z3++.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/dependency_analysis.h"
#include "prover/counters.h"
#include "prover/places.h"

namespace syncbisim::prover::detail {

// Thrown while encoding when the consumer is outside the fragment; the message is the reason.
struct Outside {
  std::string reason;
};

// A value with, when it is an isgt(...) result, the condition it is 1 under: a product with it
// becomes an ite instead of a nonlinear product.
struct Value {
  z3::expr v;
  std::optional<z3::expr> cond;
};

// Bounds a trip rule puts on one trip (and whether a constant trip can stand for the rule in a
// replay: a rule whose values differ from trip to trip cannot).
struct TripBounds {
  std::uint64_t lo = 0, hi = 0;
  bool fixable = true;
};

class Encoder {
 public:
  Encoder(z3::context& ctx, const Places& impl, const model::ProgramIndex& spec_ix, model::InstrId consumer);

  // ---- state of the consumer's engine (encoder_state.cpp) ----
  bool on_path(model::LoopId l) const;
  z3::expr j(model::LoopId l);                   // current iteration of a loop around c
  z3::expr N(model::LoopId l, model::LoopId a);  // entries of l during the current iteration of a
  z3::expr E(model::LoopId l) { return N(l, model::kTop); }
  z3::expr T(model::LoopId l);                         // the replay family's constant trip
  z3::expr full(model::LoopId l, model::LoopId a);     // family: entries of l in one whole iteration of a
  TripBounds bounds_on_engine(model::LoopId l) const;  // general constraints: the consumer engine's rule
  TripBounds replay_bounds(model::LoopId l) const;     // family: a constant trip every engine may run
  // Bounds of every loop's T, at most `cap` where the rule allows; branch loops of a cond sum to 1.
  std::vector<z3::expr> family_trips(std::uint64_t cap);

  // ---- implementation side (encoder_impl.cpp) ----
  z3::expr waits_hold();
  // ---- spec side (encoder_spec.cpp) ----
  z3::expr deps_hold(const std::vector<const analysis::DependencyInfo*>& deps);
  // In-order retirement between the instructions R was asked for (call after both sides).
  void add_retirement_order();

  z3::expr R(model::InstrId i);
  z3::expr nat(const std::string& name);

  z3::context& ctx;
  const Places& places;
  const model::ProgramIndex& spec_ix;
  model::InstrId consumer;
  model::EngineId engine;
  Place point;
  std::vector<model::LoopId> path;  // @top .. parent(c)
  std::vector<z3::expr> general;    // true in every reachable state (over-approximation)
  std::vector<z3::expr> family;     // the constant-trip histories replays are built from
  std::map<model::LoopId, z3::expr> j_;
  std::map<std::pair<model::LoopId, model::LoopId>, z3::expr> N_;
  std::map<model::LoopId, z3::expr> T_;
  std::map<model::InstrId, z3::expr> R_;

 private:
  Value reg_value(const std::string& reg, const Place& at, int depth);
  Value expr_value(const model::Expr& e, const Place& at, int depth);
  z3::expr counter_value(const std::string& reg, const Counter& c, const Place& at);
  model::LoopId junction(model::LoopId l) const;
  model::LoopId path_child(model::LoopId a) const;
  CounterScan counters_;
  int fresh_ = 0;
};

}  // namespace syncbisim::prover::detail
