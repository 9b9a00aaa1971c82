#include "checker/trip_cap.h"

#include <algorithm>

namespace syncbisim::checker {

bool cap_trip_ranges(semantics::CompiledProgram& p, std::uint32_t k) {
  bool cut = false;
  for (auto& loop : p.loops)
    for (auto& rule : loop.rule)
      if (auto* r = std::get_if<model::RangeTrip>(&rule); r && r->max > k) {
        r->max = std::max(k, r->min);
        cut = cut || r->max < loop.max_trip;
      }
  return cut;
}

}  // namespace syncbisim::checker
