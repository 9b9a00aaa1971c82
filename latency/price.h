#pragma once
// What an over-synchronization costs (GitHub issue 13, docs/timing.md "The price of an
// over-synchronization"): the impl and an exact allocation of the same spec (per-loop, bisimilar
// to the spec by the paper's Theorem 7.1 whenever every dependency is allocatable) run on the
// timing model at the same trips; the difference of their makespans is the price in cycles.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/index.h"
#include "model/program.h"
#include "timing/cost_table.h"

namespace syncbisim::latency {

struct Price {
  bool available = false;
  std::string why_not;  // no exact allocation, bad trips, ...
  std::uint64_t impl_makespan = 0, exact_makespan = 0;
  bool impl_deadlocks = false;  // on the timing model: the extra waiting never ends
  std::string exact = "per-loop";
  std::vector<std::string> trips;
  // impl - exact; may be negative when the exact allocation's register work costs more than the
  // impl's extra waiting
  std::int64_t cycles() const {
    return static_cast<std::int64_t>(impl_makespan) - static_cast<std::int64_t>(exact_makespan);
  }
};

Price price_over_synchronization(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                 const model::Program& impl, const model::ProgramIndex& impl_ix,
                                 const timing::CostTable& costs = timing::default_cost_table());

std::string price_text(const Price& p);
nlohmann::json price_json(const Price& p);

}  // namespace syncbisim::latency
