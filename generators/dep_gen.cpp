#include "generators/dep_gen.h"

#include <algorithm>
#include <set>
#include <string>

#include "generators/sized.h"
#include "model/walk.h"

namespace syncbisim::generators {

rc::Gen<DepPick> gen_dep_pick() {
  // Offsets lean to zero: most real dependencies are within one iteration.
  const auto offset =
      weighted_one_of<std::uint32_t>({{4, rc::gen::just(0u)}, {2, rc::gen::just(1u)}, {1, rc::gen::just(2u)}});
  return rc::gen::apply(
      [](std::uint32_t c, std::uint32_t p, std::uint32_t k, std::vector<std::uint32_t> offsets, std::uint32_t level) {
        return DepPick{c, p, k, std::move(offsets), level};
      },
      rc::gen::inRange<std::uint32_t>(0, 1000), rc::gen::inRange<std::uint32_t>(0, 1000),
      rc::gen::inRange<std::uint32_t>(0, 3), bounded_vector(0, 4, offset), rc::gen::inRange<std::uint32_t>(0, 1000));
}

namespace {

// The largest offset a dependency may take at `loop`: mode.max_offset, and in live mode 0 at @top
// and at a cond branch (they run once per entry) and below max_trip at a loop, whose trips
// raise_trips then makes reach offset + 1 (a target iteration must exist).
std::uint32_t offset_limit(const std::string& loop, const DepMode& mode, const std::map<std::string, LoopReach>& reach) {
  if (!mode.live) return mode.max_offset;
  const auto it = reach.find(loop);
  if (it == reach.end() || !it->second.is_loop) return 0;
  return std::min(mode.max_offset, mode.max_trip == 0 ? 0 : mode.max_trip - 1);
}

// The offset at S of a producer directly in S: k_pick modulo the choices. In live mode a
// producer at or after the consumer in pre-order takes an offset of at least 1 (at 0 it would
// point forward in time, which an acyclic draw drops, wasting the pick): the loop-carried case.
std::uint32_t producer_in_s_offset(const InstrPlace& p, const InstrPlace& c, std::uint32_t k_pick, std::uint32_t limit,
                                   const DepMode& mode) {
  if (mode.live && p.rank >= c.rank && limit > 0) return 1 + k_pick % limit;
  return k_pick % (limit + 1);
}

// The allocatable shape for producer p and consumer c (docs/semantics.md §6), S the innermost common
// loop and P the producer's parent loop: P = S takes any k (0..limit); P below S takes k = 0 when
// p's subtree comes first in S's body (forward) and k = 1 otherwise (backward, loop-carried).
// Nothing when the shape needs an offset above the limit.
std::optional<model::Dependency> allocatable(const InstrPlace& p, const InstrPlace& c, std::uint32_t k_pick,
                                             const DepMode& mode, const std::map<std::string, LoopReach>& reach) {
  const auto common = common_loops(p, c);
  const std::string& s = common.back();
  const bool p_directly_in_s = p.loops.back() == s;
  const std::uint32_t limit = offset_limit(s, mode, reach);
  std::uint32_t k = 0;
  if (p_directly_in_s) k = producer_in_s_offset(p, c, k_pick, limit, mode);
  else k = p.rank < c.rank ? 0 : 1;
  if (k > limit) return std::nullopt;
  model::Dependency d{p.id, c.id, {}, {}};
  if (k > 0) d.distance[s] = k;
  return d;
}

model::Dependency arbitrary(const InstrPlace& p, const InstrPlace& c, const DepPick& pick, const DepMode& mode,
                            const std::map<std::string, LoopReach>& reach) {
  const auto common = common_loops(p, c);
  model::Dependency d{p.id, c.id, {}, {}};
  // Zero offsets are left out: the formats treat an omitted loop as 0, so this is the one
  // canonical way of writing a distance.
  for (std::size_t i = 0; i < common.size() && i < pick.offsets.size(); ++i)
    if (const auto k = pick.offsets[i] % (offset_limit(common[i], mode, reach) + 1); k > 0)
      d.distance[common[i]] = k;
  // In live mode S's entry is drawn as for a producer in S, so loop-carried offsets at S are as
  // common as in an allocatable draw (the offsets list is short and leans to 0).
  const std::string& s = common.back();
  if (mode.live && d.distance.size() == d.distance.count(s)) {
    d.distance.erase(s);
    if (const auto k = producer_in_s_offset(p, c, pick.k, offset_limit(s, mode, reach), mode); k > 0) d.distance[s] = k;
  }
  return d;
}

bool is_nested(const InstrPlace& p, const InstrPlace& c) { return p.loops.size() > common_loops(p, c).size(); }

// Whether the pair has a shape the mode draws.
bool wanted(const InstrPlace& p, const InstrPlace& c, const DepMode& mode) {
  if (!mode.same_engine && p.engine == c.engine) return false;
  return is_nested(p, c) ? mode.nested : mode.producer_in_s;
}

// Live mode's producer: one that shares with the consumer the loop `pick.level` names among
// the loops around it (three times in four one below @top, when there is one: a dependency
// carried at @top has offset 0 and leaves the loop code untested), and has a shape the mode
// draws. Nothing when no instruction qualifies.
const InstrPlace* live_producer(const std::vector<InstrPlace>& places, const InstrPlace& c, const DepPick& pick,
                                const DepMode& mode) {
  const std::size_t loops = c.loops.size();
  std::size_t j = 0;  // index into c.loops of the loop shared
  if (loops > 1 && pick.level % 4 != 0) j = 1 + (pick.level / 4) % (loops - 1);
  std::vector<const InstrPlace*> candidates;
  for (const auto& p : places)
    if (p.loops.size() > j && std::equal(c.loops.begin(), c.loops.begin() + static_cast<std::ptrdiff_t>(j + 1),
                                         p.loops.begin()) &&
        wanted(p, c, mode))
      candidates.push_back(&p);
  if (candidates.empty()) return nullptr;
  return candidates[pick.producer % candidates.size()];
}

}  // namespace

std::vector<model::Dependency> resolve_deps(const std::vector<InstrPlace>& all_places, const std::vector<DepPick>& picks,
                                            DepMode mode, const std::map<std::string, LoopReach>& reach) {
  std::vector<model::Dependency> out;
  // In live mode picks land only on instructions whose loops can all run.
  std::vector<InstrPlace> runnable;
  if (mode.live)
    for (const auto& place : all_places) {
      const auto it = reach.find(place.loops.back());
      if (it == reach.end() || it->second.runs) runnable.push_back(place);
    }
  if (all_places.empty() || (mode.live && runnable.empty())) return out;
  std::set<std::string> consumers;
  for (const auto& pick : picks) {
    // With dead_picks one pick in three may land anywhere and take any offset (see DepMode); its
    // producer still shares a loop with the consumer, where offsets are loop-carried.
    DepMode m = mode;
    const bool dead_pick = m.live && m.dead_picks && pick.level % 3 == 2;
    if (dead_pick) m.live = false;
    const auto& places = m.live ? runnable : all_places;
    const auto& c = places[pick.consumer % places.size()];
    const InstrPlace* chosen = mode.live ? live_producer(places, c, pick, m) : &places[pick.producer % places.size()];
    if (!chosen || !wanted(*chosen, c, m)) continue;
    const auto& p = *chosen;
    std::optional<model::Dependency> d;
    if (mode.allocatable_only) d = allocatable(p, c, pick.k, m, reach);
    else d = arbitrary(p, c, pick, m, reach);
    if (!d) continue;
    if (!mode.distance_at_top && d->distance.count(model::kTopLoop)) {
      // An allocatable shape with an offset at @top would change shape without it: drop it.
      if (mode.allocatable_only) continue;
      d->distance.erase(model::kTopLoop);
    }
    if (mode.acyclic && d->distance.empty() && p.rank >= c.rank) continue;
    if (mode.allocatable_only && !mode.several_per_consumer && !consumers.insert(c.id).second) continue;
    const bool duplicate = std::any_of(out.begin(), out.end(), [&](const model::Dependency& e) {
      return e.producer == d->producer && e.consumer == d->consumer && e.distance == d->distance;
    });
    if (!duplicate) out.push_back(std::move(*d));
  }
  return out;
}

namespace {

void raise_choice(model::Choice& c, std::uint32_t least_max) {
  if (auto* k = std::get_if<model::ConstTrip>(&c)) {
    k->n = std::max(k->n, least_max);
  } else if (auto* r = std::get_if<model::RangeTrip>(&c)) {
    r->max = std::max(r->max, least_max);
  } else {
    auto& v = std::get<model::SeqTrip>(c).values;
    if (*std::max_element(v.begin(), v.end()) < least_max) v.back() = least_max;
  }
}

}  // namespace

void raise_trips(model::Program& p) {
  std::map<std::string, std::uint32_t> need;  // loop -> the largest offset at it
  for (const auto& d : p.deps)
    for (const auto& [loop, k] : d.distance) need[loop] = std::max(need[loop], k);
  model::for_each_stmt(p.body, [&](model::Stmt& stmt, const model::LoopPath&) {
    auto* l = std::get_if<model::Loop>(&stmt.node);
    if (!l || !l->trip) return;
    const auto it = need.find(l->id);
    if (it == need.end()) return;
    raise_choice(l->trip->uniform, it->second + 1);
    for (auto& [engine, choice] : l->trip->per_engine) raise_choice(choice, it->second + 1);
  });
}

}  // namespace syncbisim::generators
