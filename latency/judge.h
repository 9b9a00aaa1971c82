#pragma once
// The timing model as the expert strategy's judge (allocator::Options::judge, allocator/expert.h):
// a candidate impl of a spec is run on the model at the spec's sim_trips (else its rules' trips,
// docs/timing.md "Trips") and costs its makespan in cycles; an impl the model cannot run (a
// deadlock, bad trips) has no cost.
#include <cstdint>
#include <functional>
#include <optional>

#include "model/index.h"
#include "model/program.h"
#include "timing/cost_table.h"

namespace syncbisim::latency {

std::function<std::optional<std::uint64_t>(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                          const model::Program& impl)>
timing_judge(const timing::CostTable& costs = timing::default_cost_table());

}  // namespace syncbisim::latency
