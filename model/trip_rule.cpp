#include "model/trip_rule.h"

#include <algorithm>

namespace syncbisim::model {

std::uint64_t choice_count(const Choice& c, std::uint64_t) {
  if (const auto* rt = std::get_if<RangeTrip>(&c)) return rt->max >= rt->min ? std::uint64_t{rt->max} - rt->min + 1 : 0;
  return 1;
}

std::uint32_t choice_at(const Choice& c, std::uint64_t k, std::uint64_t i) {
  if (const auto* rt = std::get_if<RangeTrip>(&c)) return static_cast<std::uint32_t>(rt->min + i);
  return fixed_value(c, k);
}

std::uint32_t choice_min(const Choice& c) {
  if (const auto* ct = std::get_if<ConstTrip>(&c)) return ct->n;
  if (const auto* rt = std::get_if<RangeTrip>(&c)) return rt->min;
  const auto& seq = std::get<SeqTrip>(c).values;
  return seq.empty() ? 0 : *std::min_element(seq.begin(), seq.end());
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

std::uint32_t rule_max(const TripRule& r) {
  std::uint32_t m = choice_max(r.uniform);
  for (const auto& [engine, choice] : r.per_engine) m = std::max(m, choice_max(choice));
  return m;
}

std::uint32_t rule_min(const TripRule& r) {
  std::uint32_t m = choice_min(r.uniform);
  for (const auto& [engine, choice] : r.per_engine) m = std::min(m, choice_min(choice));
  return m;
}

}  // namespace syncbisim::model
