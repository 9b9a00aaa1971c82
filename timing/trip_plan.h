#pragma once
// How many iterations each trip of each loop runs in a simulation (docs/timing.md "Trips"): the
// timing model is deterministic, so every choice the trip rules leave open is fixed here. In
// order of precedence: a count given for the loop (`simulate --trips`), the loop's `sim_trip`
// (the real kernel's scale, carried by the spec), else the rule itself: a constant, the k-th
// value of a sequence, the largest value of a range. A cond takes the branch given, else `then`
// unless its rule allows only `else` (as `stats` does).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"
#include "model/trip_rule.h"

namespace syncbisim::timing {

class TripPlan {
 public:
  // `given`: loop id -> iterations, cond id -> 0 (then) or 1 (else) (allocator::parse_trips).
  // Unknown names and a cond given more than 1 are errors (rule "bad-trips").
  static model::Result<TripPlan> make(const model::Program& spec, const model::ProgramIndex& ix,
                                      const std::map<std::string, std::uint32_t>& given, bool use_sim_trips = true);

  // Iterations of the k-th trip (0-based, counted per engine) of loop `l` on engine `e`; for a
  // cond's then-loop 1 (then) or 0 (else). Not asked of else-loops: they run 1 - the then-loop.
  std::uint32_t trip(model::LoopId l, model::EngineId e, std::uint64_t k) const;

  // One line per loop and cond: "iter=10000 (sim_trip)", "A=3 (rule)", "C=then (given)".
  std::vector<std::string> describe() const;
  // Loop id -> iterations of its first trip on the first engine, for the loops fixed by a count
  // or a sim_trip (what a related program, such as an exact allocation, should run too).
  const std::map<std::string, std::uint32_t>& fixed() const { return fixed_; }

 private:
  struct LoopTrips {
    bool is_cond = false;
    bool fixed = false;
    std::uint32_t value = 0;             // fixed: iterations, or the branch for a cond
    std::vector<model::Choice> choices;  // per engine, when not fixed
    std::string name, source;
  };
  std::vector<LoopTrips> loops_;  // by LoopId
  std::map<std::string, std::uint32_t> fixed_;
};

}  // namespace syncbisim::timing
