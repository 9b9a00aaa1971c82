#pragma once
// What `syncbisim stats` prints of an impl's resource figures (allocator/stats.h), against a
// budget (docs/allocator.md "Budgets"): the text for people and the stats/1 JSON document
// (docs/schema/stats.schema.json). The command, `stats --compare` (latency/strategy_comparison.h)
// and the public API's stats() all print through these, so they cannot disagree.
#include <string>

#include <nlohmann/json.hpp>

#include "allocator/allocate.h"
#include "allocator/stats.h"

namespace syncbisim::allocator {

// The budget of a report is Options::max_semaphores and Options::max_registers (nothing else of
// `budget` is read): the very limits the allocator fits by.

// Whether the impl is within the budget, by the rule the allocator fits by (Usage::fits), so that
// a report's "(over)" cannot disagree with it: a count at the limit is within it, one past it is over.
bool within_budget(const Stats& s, const Options& budget);
// {"semaphores": {"used", "limit"}, "registers_per_engine": {"used", "limit"}}
nlohmann::json budget_json(const Stats& s, const Options& budget);
// The figures alone ($defs/figures of the schema; a stats-compare/1 row repeats them).
nlohmann::json figures_json(const Stats& s);
// A count past 2^64 - 1 as the text that says so, in JSON and in a table's cell.
nlohmann::json count_json(const Count& c);
std::string count_cell(const Count& c);

// The stats/1 document and the text of `syncbisim stats IMPL`.
nlohmann::json stats_json(const Stats& s, const Options& budget);
std::string stats_text(const Stats& s, const Options& budget);

}  // namespace syncbisim::allocator
