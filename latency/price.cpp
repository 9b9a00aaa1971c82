#include "latency/price.h"

#include "allocator/allocate.h"
#include "analysis/dependency_analysis.h"
#include "timing/range_makespans.h"
#include "timing/simulate.h"

namespace syncbisim::latency {

Price price_over_synchronization(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                 const model::Program& impl, const model::ProgramIndex& impl_ix,
                                 const timing::CostTable& costs) {
  Price p;
  const auto a = analysis::analyze_dependencies(spec, spec_ix);
  for (const auto& d : a.deps)
    if (!d.allocatable()) {
      p.why_not = "no exact allocation to compare with: " + spec.deps[d.dep_index].producer + " -> " +
                  spec.deps[d.dep_index].consumer + " is not allocatable (" + d.reason + ")";
      return p;
    }
  if (!a.deadlocks.empty()) {
    p.why_not = "the spec itself deadlocks: " + a.deadlocks.front().message;
    return p;
  }
  auto exact = allocator::allocate(spec, spec_ix, {allocator::Strategy::PerLoop, false});
  if (!exact) {
    p.why_not = "the exact allocation failed: " + exact.error().message;
    return p;
  }
  auto exact_ix = model::ProgramIndex::build(exact->impl);
  if (!exact_ix) {
    p.why_not = "the exact allocation failed: " + exact_ix.error().message;
    return p;
  }
  auto mine = timing::simulate_pair(spec, spec_ix, impl, impl_ix, costs, {});
  auto theirs = timing::simulate_pair(spec, spec_ix, exact->impl, *exact_ix, costs, {});
  if (!mine || !theirs) {
    p.why_not = (!mine ? mine.error() : theirs.error()).message;
    return p;
  }
  p.available = true;
  p.impl_makespan = mine->makespan;
  p.exact_makespan = theirs->makespan;
  p.impl_deadlocks = mine->deadlock;
  p.trips = mine->trips;
  return p;
}

std::string price_text(const Price& p) {
  if (!p.available) return "price on the timing model: not computed: " + p.why_not + "\n";
  const auto trips = timing::listed_loops(p.trips, ", ", " loops");  // --json lists every one
  if (p.impl_deadlocks)
    return "price on the timing model: the impl deadlocks (after " + std::to_string(p.impl_makespan) +
           " cycles), the exact " + p.exact + " allocation finishes in " + std::to_string(p.exact_makespan) +
           " cycles (trips " + trips + ")\n";
  const auto c = p.cycles();
  std::string out = "price on the timing model: " + std::to_string(c) + " cycles (impl " +
                    std::to_string(p.impl_makespan) + ", exact " + p.exact + " allocation " +
                    std::to_string(p.exact_makespan) + ", trips " + trips + ")";
  if (c < 0) out += "; the exact allocation's register work costs more than this impl's extra waiting";
  return out + "\n";
}

nlohmann::json price_json(const Price& p) {
  nlohmann::json j;
  j["available"] = p.available;
  if (!p.available) {
    j["why_not"] = p.why_not;
    return j;
  }
  j["cycles"] = p.cycles();
  j["impl_makespan"] = p.impl_makespan;
  j["exact_makespan"] = p.exact_makespan;
  j["impl_deadlocks"] = p.impl_deadlocks;
  j["exact"] = p.exact;
  j["trips"] = p.trips;
  return j;
}

}  // namespace syncbisim::latency
