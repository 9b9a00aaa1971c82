#include "model/trip_rule.h"

#include <algorithm>

namespace syncbisim::model {

std::vector<std::uint32_t> choice_values(const Choice& c, std::uint64_t k) {
  if (const auto* ct = std::get_if<ConstTrip>(&c)) return {ct->n};
  if (const auto* rt = std::get_if<RangeTrip>(&c)) {
    std::vector<std::uint32_t> out;
    for (std::uint64_t v = rt->min; v <= rt->max; ++v) out.push_back(static_cast<std::uint32_t>(v));
    return out;
  }
  const auto& seq = std::get<SeqTrip>(c).values;
  if (seq.empty()) return {0};
  return {seq[std::min<std::uint64_t>(k, seq.size() - 1)]};
}

std::uint32_t fixed_value(const Choice& c, std::uint64_t k) {
  if (const auto* ct = std::get_if<ConstTrip>(&c)) return ct->n;
  const auto& seq = std::get<SeqTrip>(c).values;
  return seq.empty() ? 0 : seq[std::min<std::uint64_t>(k, seq.size() - 1)];
}

std::uint32_t choice_max(const Choice& c) {
  if (const auto* ct = std::get_if<ConstTrip>(&c)) return ct->n;
  if (const auto* rt = std::get_if<RangeTrip>(&c)) return rt->max;
  const auto& seq = std::get<SeqTrip>(c).values;
  return seq.empty() ? 0 : *std::max_element(seq.begin(), seq.end());
}

const Choice& TripRule::for_engine(const std::string& engine) const {
  for (const auto& [name, choice] : per_engine)
    if (name == engine) return choice;
  return uniform;
}

}  // namespace syncbisim::model
