#include "latency/graph_price.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "allocator/allocate.h"
#include "latency/judge.h"

namespace syncbisim::latency {

namespace {
// The makespan of the spec with `graph`, allocated per loop, on the timing model.
std::optional<std::uint64_t> makespan_with(const model::Program& spec, const std::vector<model::Dependency>& graph) {
  auto p = spec;
  p.deps = graph;
  auto ix = model::ProgramIndex::build(p);
  if (!ix) return std::nullopt;
  allocator::Options o;
  o.strategy = allocator::Strategy::PerLoop;
  auto a = allocator::allocate(p, *ix, o);
  if (!a) return std::nullopt;
  return timing_judge()(p, *ix, a->impl);
}
}  // namespace

void price_over_synchronized(footprint::Comparison& c, const footprint::Derivation& derived,
                             const model::Program& spec) {
  if (c.over_synchronized.empty()) return;
  const auto& written = spec.deps;
  const auto base = makespan_with(spec, written);
  for (auto& f : c.over_synchronized) {
    if (f.index >= written.size()) continue;
    const auto& w = written[f.index];
    std::vector<model::Dependency> variant;
    for (std::size_t i = 0; i < written.size(); ++i)
      if (i != f.index) variant.push_back(written[i]);
    for (const auto& d : derived.deps)
      if (d.dep.producer == w.producer && d.dep.consumer == w.consumer) variant.push_back(d.dep);
    const auto better = makespan_with(spec, variant);
    if (!base || !better) {
      f.message += "; its price could not be timed (an allocation or the timing model failed)";
      continue;
    }
    const auto cycles = static_cast<std::int64_t>(*base) - static_cast<std::int64_t>(*better);
    f.message += "; price on the timing model: " + std::to_string(cycles) + " cycles (makespan " +
                 std::to_string(*base) + " against " + std::to_string(*better) +
                 " with the derived distance, per-loop allocations at the kernel's sim trips)";
  }
}

}  // namespace syncbisim::latency
