#pragma once
// How many iterations the k-th trip of a loop runs (docs/semantics.md §1, "Trip rules"). A cond
// uses the same rule over branch choices: value 0 = then, 1 = else.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace syncbisim::model {

struct ConstTrip {
  std::uint32_t n = 0;
  bool operator==(const ConstTrip&) const = default;
};
// Any value in [min, max], chosen when the trip starts.
struct RangeTrip {
  std::uint32_t min = 0, max = 0;
  bool operator==(const RangeTrip&) const = default;
};
// The k-th trip runs values[k], the last value repeating. Never empty.
struct SeqTrip {
  std::vector<std::uint32_t> values;
  bool operator==(const SeqTrip&) const = default;
};

// One engine's view of a trip rule.
using Choice = std::variant<ConstTrip, RangeTrip, SeqTrip>;

// The values the k-th trip (0-based) may take, ascending, counted and read one by one: a range
// may hold 2^32 of them, so no list of them is ever built (issue 18).
std::uint64_t choice_count(const Choice& c, std::uint64_t k);
// The i-th of them (i < choice_count(c, k)).
std::uint32_t choice_at(const Choice& c, std::uint64_t k, std::uint64_t i);
// The least value any trip may take.
std::uint32_t choice_min(const Choice& c);
// The one value of the k-th trip of a choice that leaves none (a ConstTrip or a SeqTrip), without
// building a vector: the semantics asks this at every loop head.
std::uint32_t fixed_value(const Choice& c, std::uint64_t k);
// The largest value any trip may take.
std::uint32_t choice_max(const Choice& c);

// Uniform control: one Choice for all engines (the first engine to start a trip chooses).
// Divergent control (paper §7.5): per-engine choices, each engine choosing on its own;
// engines not listed use `uniform` as their default.
struct TripRule {
  Choice uniform = ConstTrip{1};
  std::vector<std::pair<std::string, Choice>> per_engine;  // engine name -> choice, in file order
  bool divergent = false;                                  // true iff written as {"per_engine": ...}

  const Choice& for_engine(const std::string& engine) const;
  bool operator==(const TripRule&) const = default;
};

// The largest and the least value a rule gives on any engine.
std::uint32_t rule_max(const TripRule& r);
std::uint32_t rule_min(const TripRule& r);

}  // namespace syncbisim::model
