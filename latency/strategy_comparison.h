#pragma once
// Every strategy on one spec, side by side (`syncbisim stats --compare`, the public API's
// compare_strategies()): per strategy the resource figures of its allocation with paper §6.2's ALU
// reductions and without, how exact it stayed in the budget, and its makespan on the timing model
// (docs/timing.md). In latency/ because it composes the allocator with the timing model.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocator/allocate.h"
#include "allocator/stats.h"
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::latency {

struct StrategyRow {
  allocator::Strategy strategy = allocator::Strategy::Auto;
  // Not empty: the strategy cannot fit the budget, and why; nothing below is then set.
  std::string over_budget;
  allocator::Stats after;                 // the allocation as allocate gives it (LICM and CSE on)
  allocator::Stats before;                // the same allocation without LICM and CSE: what they saved
  std::size_t fallback = 0, inexact = 0;  // decisions of Scheme::Fallback, and not exact
  bool exact = false;                     // allocator::Allocation::exact
  // The makespan in cycles of `after`'s impl on the timing model, as `syncbisim simulate SPEC
  // IMPL` gives it (the default cost table, each loop's sim_trip else its rule; not the figures'
  // trips): absent where the model deadlocks or stops at its step limit, `cycles_why` saying so.
  std::optional<std::uint64_t> cycles;
  std::string cycles_why;
};

struct StrategyComparison {
  std::vector<StrategyRow> rows;  // allocator::all_strategies() order
};

struct ComparisonOptions {
  std::map<std::string, std::uint32_t> trips;  // for the executed counts (allocator::compute_stats)
  // The budget every strategy is allocated in and reported against (docs/allocator.md "Budgets").
  std::size_t max_semaphores = allocator::Options{}.max_semaphores;
  std::size_t max_registers = allocator::Options{}.max_registers;
  unsigned jobs = 0;  // allocations at once (0: every core); the result is the same for any number
};

// `spec` normalized and `ix` built from it. An allocation's error other than "over-budget" is
// returned, named after `file`.
model::Result<StrategyComparison> compare_strategies(const model::Program& spec, const model::ProgramIndex& ix,
                                                     const ComparisonOptions& options, const std::string& file);

// The table `stats --compare` prints, and its stats-compare/1 document (docs/schema/stats-compare.schema.json).
std::string strategy_table_text(const StrategyComparison& c, const ComparisonOptions& options);
nlohmann::json strategy_table_json(const StrategyComparison& c, const ComparisonOptions& options);

}  // namespace syncbisim::latency
