#pragma once
// The makespan over a dynamic range (issue 42): a loop whose rule is a range `min..max` runs its
// largest value in a simulation unless told otherwise (timing/trip_plan.h), which says nothing of
// how the kernel does at the other end. Here every such loop (not given a count, no sim_trip)
// runs its smallest, then its median, then its largest value, all together: three simulations.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"
#include "timing/cost_table.h"
#include "timing/simulate.h"

namespace syncbisim::timing {

// Loops named one by one in the text reports (the trips line, the dynamic ranges, the price);
// past it, how many more (--json lists every one).
inline constexpr std::size_t kLoopsListed = 16;
// `items` joined with `sep`, the first kLoopsListed of them, then "<sep>... and N more<tail>".
std::string listed_loops(const std::vector<std::string>& items, const std::string& sep, const std::string& tail = "");

struct RangeMakespan {
  std::string at;                              // "smallest", "median", "largest"
  std::map<std::string, std::uint32_t> trips;  // the range loops' values
  std::uint64_t makespan = 0;
  bool deadlock = false;
  std::string limit;  // the model stopped at its step limit: the makespan is a lower bound
};

// Empty when no loop is left to a range. `largest` is the simulation already made with these
// options (its range loops at their largest values, TripPlan's default): it is not run again.
// The median is not run when that one was cut at the step limit (it would be cut too, at the same
// cost); it is then left out. Errors: bad trips (as simulate_pair).
model::Result<std::vector<RangeMakespan>> range_makespans(const model::Program& spec,
                                                          const model::ProgramIndex& spec_ix,
                                                          const model::Program& impl,
                                                          const model::ProgramIndex& impl_ix, const CostTable& table,
                                                          const std::map<std::string, std::uint32_t>& given,
                                                          const Simulation& largest, const SimOptions& options = {});

// "over the dynamic ranges (A 1..4): 812 cycles at the smallest trips, 1604 at the median, 2390
// at the largest"; and the JSON array of docs/schema/simulate.schema.json "ranges".
std::string range_makespans_text(const std::vector<RangeMakespan>& r);
nlohmann::json range_makespans_json(const std::vector<RangeMakespan>& r);

}  // namespace syncbisim::timing
