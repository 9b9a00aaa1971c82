#include "allocator/trip_facts.h"

#include <algorithm>
#include <set>

namespace syncbisim::allocator {

namespace {

// Every value the rule allows on some engine, over all trips (a sequence's values all occur).
std::set<std::uint32_t> values_of(const model::TripRule& t) {
  std::set<std::uint32_t> out;
  const auto add = [&](const model::Choice& c) {
    if (const auto* seq = std::get_if<model::SeqTrip>(&c)) out.insert(seq->values.begin(), seq->values.end());
    else if (const auto* r = std::get_if<model::RangeTrip>(&c)) {
      out.insert(r->min);
      out.insert(r->max);
      if (r->max > r->min + 1) out.insert(r->min + 1);  // "more than one value" is all that matters
    } else out.insert(std::get<model::ConstTrip>(c).n);
  };
  add(t.uniform);
  for (const auto& [e, c] : t.per_engine) add(c);
  return out;
}

// Iterations of a branch loop for a cond value (0 = then, 1 = else).
std::uint32_t branch_iterations(model::LoopKind kind, std::uint32_t value) {
  return (kind == model::LoopKind::CondThen) == (value == 0) ? 1 : 0;
}

}  // namespace

std::uint32_t min_iterations(const model::LoopInfo& l) {
  if (l.kind == model::LoopKind::Top) return 1;
  if (!l.trip) return l.kind == model::LoopKind::Loop ? 1 : 0;
  std::uint32_t m = UINT32_MAX;
  for (auto v : values_of(*l.trip)) m = std::min(m, l.kind == model::LoopKind::Loop ? v : branch_iterations(l.kind, v));
  return m;
}

std::uint32_t max_iterations(const model::LoopInfo& l) {
  if (l.kind == model::LoopKind::Top || !l.trip) return 1;
  std::uint32_t m = 0;
  for (auto v : values_of(*l.trip)) m = std::max(m, l.kind == model::LoopKind::Loop ? v : branch_iterations(l.kind, v));
  return m;
}

std::optional<std::uint32_t> constant_iterations(const model::LoopInfo& l) {
  if (l.kind == model::LoopKind::Top) return 1;
  if (!l.trip) return std::nullopt;
  const auto lo = min_iterations(l), hi = max_iterations(l);
  if (lo != hi) return std::nullopt;
  return lo;
}

}  // namespace syncbisim::allocator
