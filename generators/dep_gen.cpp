#include "generators/dep_gen.h"

#include <algorithm>
#include <set>
#include <string>

#include "generators/sized.h"

namespace syncbisim::generators {

rc::Gen<DepPick> gen_dep_pick() {
  // Offsets lean to zero: most real dependencies are within one iteration.
  const auto offset =
      weighted_one_of<std::uint32_t>({{4, rc::gen::just(0u)}, {2, rc::gen::just(1u)}, {1, rc::gen::just(2u)}});
  return rc::gen::apply(
      [](std::uint32_t c, std::uint32_t p, std::uint32_t k, std::vector<std::uint32_t> offsets) {
        return DepPick{c, p, k, std::move(offsets)};
      },
      rc::gen::inRange<std::uint32_t>(0, 1000), rc::gen::inRange<std::uint32_t>(0, 1000),
      rc::gen::inRange<std::uint32_t>(0, 3), bounded_vector(0, 4, offset));
}

namespace {

// The allocatable shape for producer p and consumer c (docs/semantics.md §6), S the innermost common
// loop and P the producer's parent loop: P = S takes any k (0..2); P below S takes k = 0 when
// p's subtree comes first in S's body (forward) and k = 1 otherwise (backward, loop-carried).
model::Dependency allocatable(const InstrPlace& p, const InstrPlace& c, std::uint32_t k_pick) {
  const auto common = common_loops(p, c);
  const std::string& s = common.back();
  const bool p_directly_in_s = p.loops.back() == s;
  std::uint32_t k = 0;
  if (p_directly_in_s) k = k_pick % 3;
  else k = p.rank < c.rank ? 0 : 1;
  model::Dependency d{p.id, c.id, {}, {}};
  if (k > 0) d.distance[s] = k;
  return d;
}

model::Dependency arbitrary(const InstrPlace& p, const InstrPlace& c, const std::vector<std::uint32_t>& offsets) {
  const auto common = common_loops(p, c);
  model::Dependency d{p.id, c.id, {}, {}};
  // Zero offsets are left out: the formats treat an omitted loop as 0, so this is the one
  // canonical way of writing a distance.
  for (std::size_t i = 0; i < common.size() && i < offsets.size(); ++i)
    if (offsets[i] > 0) d.distance[common[i]] = offsets[i];
  return d;
}

}  // namespace

std::vector<model::Dependency> resolve_deps(const std::vector<InstrPlace>& places, const std::vector<DepPick>& picks,
                                            DepMode mode) {
  std::vector<model::Dependency> out;
  if (places.empty()) return out;
  std::set<std::string> consumers;
  for (const auto& pick : picks) {
    const auto& c = places[pick.consumer % places.size()];
    const auto& p = places[pick.producer % places.size()];
    auto d = mode.allocatable_only ? allocatable(p, c, pick.k) : arbitrary(p, c, pick.offsets);
    if (!mode.distance_at_top && d.distance.count(model::kTopLoop)) {
      // An allocatable shape with an offset at @top would change shape without it: drop it.
      if (mode.allocatable_only) continue;
      d.distance.erase(model::kTopLoop);
    }
    if (mode.acyclic && d.distance.empty() && p.rank >= c.rank) continue;
    if (mode.allocatable_only && !consumers.insert(c.id).second) continue;
    const bool duplicate = std::any_of(out.begin(), out.end(), [&](const model::Dependency& e) {
      return e.producer == d.producer && e.consumer == d.consumer && e.distance == d.distance;
    });
    if (!duplicate) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace syncbisim::generators
