#include "allocator/mixed.h"

#include <algorithm>

#include "allocator/expr_build.h"
#include "allocator/give_up.h"
#include "allocator/strategies.h"
#include "allocator/wait_value.h"

namespace syncbisim::allocator {

std::uint32_t top_statement(const SpecFacts& facts, model::InstrId i) {
  return facts.counts.instr_stmt_in(facts.ix, i, model::kTop);
}

bool boundary_allowed(const SpecFacts& facts, std::uint32_t b) {
  for (const auto& d : facts.analysis.deps) {
    if (!d.distance.empty() && d.distance[0] > 0) continue;  // at @top: never binds
    if (top_statement(facts, d.consumer) < b && top_statement(facts, d.producer) >= b) return false;
  }
  return true;
}

namespace {

using Pair = std::pair<model::LoopId, model::EngineId>;

struct Live {
  std::size_t dep;
  DepCount count;
};

// One semaphore before recycling: a producer's own, a pair's, or an engine's.
struct Group {
  GroupKind kind;
  model::InstrId producer = 0;  // Own
  Pair pair{};                  // Loop
  model::EngineId engine = 0;   // Engine
  bool operator<(const Group& o) const {
    return std::tie(kind, producer, pair, engine) < std::tie(o.kind, o.producer, o.pair, o.engine);
  }
};

}  // namespace

void allocate_mixed(const SpecFacts& facts, Draft& draft, const std::vector<std::size_t>& deps, const Mix& mix) {
  const auto& ix = facts.ix;
  auto& regs = draft.registers();
  std::vector<Live> live;
  std::vector<std::size_t> given_up;
  for (auto d : deps) {
    const auto& info = facts.dep(d);
    auto count = dep_count(facts, regs, info);
    if (count.never_binds) {
      draft.decide(d, Scheme::NoWait, "", std::nullopt, count.how);
      continue;
    }
    if (mix.given_up.contains(d)) {
      given_up.push_back(d);
      continue;
    }
    const auto tp = top_statement(facts, info.producer), tc = top_statement(facts, info.consumer);
    const auto crossing =
        std::find_if(mix.boundaries.begin(), mix.boundaries.end(), [&](std::uint32_t b) { return tp < b && b <= tc; });
    if (crossing != mix.boundaries.end()) {
      // Every instance of p lies before the barrier, which drains every engine first.
      draft.decide(d, Scheme::Barrier, "", std::nullopt,
                   "(budget: not exact) satisfied by the recycling barrier before top-level statement " +
                       std::to_string(*crossing) + ", no wait",
                   false);
      continue;
    }
    live.push_back(Live{d, std::move(count)});
  }
  apply_give_ups(facts, draft, given_up);

  const auto pair_of = [&](model::InstrId p) { return Pair{ix.instrs[p].parent, ix.instrs[p].engine}; };
  auto kind = [&](model::InstrId p) {
    const auto it = mix.pairs.find(pair_of(p));
    return it == mix.pairs.end() ? GroupKind::Own : it->second;
  };
  // Engine pairs whose dependencies the decode cannot express become Loop, until none fails
  // (removing members only removes terms).
  std::set<Pair> demoted;
  std::vector<bool> counted(ix.instrs.size());
  for (bool changed = true; changed;) {
    changed = false;
    std::fill(counted.begin(), counted.end(), false);
    for (const auto& l : live) {
      const auto p = facts.dep(l.dep).producer;
      counted[p] = kind(p) == GroupKind::Engine && !demoted.count(pair_of(p));
    }
    const CountedInstrs index(facts, counted);  // `counted` is fixed for the pass
    for (const auto& l : live) {
      const auto& info = facts.dep(l.dep);
      if (!counted[info.producer]) continue;
      if (decode_engine(facts, regs, info, index).value) continue;
      demoted.insert(pair_of(info.producer));
      changed = true;
    }
  }
  const auto group_of = [&](model::InstrId p) {
    auto k = kind(p);
    if (k == GroupKind::Engine && demoted.count(pair_of(p))) k = GroupKind::Loop;
    if (k == GroupKind::Own) return Group{k, p, {}, 0};
    if (k == GroupKind::Loop) return Group{k, 0, pair_of(p), 0};
    return Group{k, 0, {}, ix.instrs[p].engine};
  };

  // Members (signallers) and the top-level span of each group, in first-use order; a group is
  // looked up once per live dependency, then named by its index (a long block has 100,000
  // groups of its own: one tree of them, not one per table).
  std::map<Group, std::size_t> group_ids;  // iterated in Group order where the order matters (signals)
  std::vector<Group> order;
  std::vector<std::vector<model::InstrId>> members;  // sorted and unique below
  std::vector<std::pair<std::uint32_t, std::uint32_t>> span;
  std::vector<std::size_t> group_of_live(live.size());
  for (std::size_t k = 0; k < live.size(); ++k) {
    const auto& info = facts.dep(live[k].dep);
    const auto [it, fresh] = group_ids.emplace(group_of(info.producer), order.size());
    if (fresh) {
      order.push_back(it->first);
      members.emplace_back();
      span.emplace_back(UINT32_MAX, 0u);
    }
    const auto g = it->second;
    group_of_live[k] = g;
    members[g].push_back(info.producer);
    for (auto i : {info.producer, info.consumer}) {
      span[g].first = std::min(span[g].first, top_statement(facts, i));
      span[g].second = std::max(span[g].second, top_statement(facts, i));
    }
  }
  for (auto& ms : members) {
    std::sort(ms.begin(), ms.end());
    ms.erase(std::unique(ms.begin(), ms.end()), ms.end());
  }
  // Recycling: a group that lives between two boundaries takes a shared semaphore, the k-th of
  // its phase the k-th of the pool; every boundary's barrier resets the pool.
  const std::vector<std::uint32_t> bounds(mix.boundaries.begin(), mix.boundaries.end());
  const auto phase_of = [&](std::uint32_t stmt) {
    return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), stmt) - bounds.begin());
  };
  std::vector<std::string> sem(order.size());
  std::vector<std::string> pool;
  std::map<std::size_t, std::size_t> used_in_phase;
  for (std::size_t id = 0; id < order.size(); ++id) {
    const auto& g = order[id];
    const auto [first, last] = span[id];
    if (!bounds.empty() && phase_of(first) == phase_of(last)) {
      const auto k = used_in_phase[phase_of(first)]++;
      if (k == pool.size()) pool.push_back(draft.semaphore("s_recycled_", std::to_string(k + 1)));
      sem[id] = pool[k];
      continue;
    }
    switch (g.kind) {
      case GroupKind::Own: sem[id] = draft.semaphore("s_", ix.instrs[g.producer].name); break;
      case GroupKind::Loop:
        sem[id] = draft.semaphore("s_", ix.loops[g.pair.first].name + "_" + ix.engines[g.pair.second]);
        break;
      case GroupKind::Engine: sem[id] = draft.semaphore("s_", ix.engines[g.engine]); break;
    }
  }
  // Every boundary gets its barrier, also when no group was recycled: the dependencies that
  // cross it were decided above as satisfied by it.
  for (auto b : bounds) draft.barrier_before_stmt(model::kTop, b, model::Barrier{pool, {}});
  for (const auto& [g, id] : group_ids)
    for (auto p : members[id]) draft.signal(p, sem[id]);
  // paper (4)'s N and K of a Loop group: its signalling producers in body order, worked out once
  // per group (per dependency it would be quadratic in a long body's producers).
  std::vector<std::uint32_t> group_size(order.size(), 0);
  std::vector<std::uint32_t> position(ix.instrs.size(), 0);  // a producer is in one group (group_of)
  for (const auto& [g, id] : group_ids) {
    if (g.kind != GroupKind::Loop) continue;
    std::vector<model::InstrId> ms = members[id];
    std::stable_sort(ms.begin(), ms.end(), [&](auto a, auto b) { return facts.counts.k[a] < facts.counts.k[b]; });
    group_size[id] = static_cast<std::uint32_t>(ms.size());
    for (std::size_t i = 0; i < ms.size(); ++i) position[ms[i]] = static_cast<std::uint32_t>(i + 1);
  }

  const CountedInstrs final_counts(facts, counted);
  for (std::size_t lk = 0; lk < live.size(); ++lk) {
    const auto& l = live[lk];
    const auto& info = facts.dep(l.dep);
    const auto id = group_of_live[lk];
    const auto& g = order[id];
    const bool unmask = mix.unmasked.contains(l.dep);
    // The paper's mask of an offset-0 dependency is isgt(rh_S, 0), 1 at every issue: dropping it
    // loses nothing.
    const bool unmask_exact = info.allocatable() && info.offset == 0;
    const auto mask = unmask ? std::nullopt : l.count.value.mask;
    std::string detail = l.count.how;
    const auto with = [&](const std::string& more) {
      if (!more.empty()) detail = detail.empty() ? more : more + ", " + detail;
    };
    Scheme scheme = Scheme::PerInstruction;
    model::Expr count = l.count.value.count;
    if (g.kind == GroupKind::Loop) {
      // paper (4) over the pair's signalling producers only, in body order.
      const auto n = group_size[id];
      const auto k = position[info.producer];
      count = sub(mul(num(n), count), num(n - k));
      scheme = Scheme::PerLoop;
      with("N=" + std::to_string(n) + " K=" + std::to_string(k));
    } else if (g.kind == GroupKind::Engine) {
      count = *decode_engine(facts, regs, info, final_counts).value;
      scheme = Scheme::PerEngine;
    }
    if (unmask) with(unmask_exact ? "no mask: isgt(rh_S, 0) is 1 at every issue" : "(budget: not exact) no mask");
    const auto value = draft.add_wait(info.consumer, sem[id], WaitValue{mask, count});
    draft.decide(l.dep, scheme, sem[id], value, detail, l.count.exact && (!unmask || unmask_exact));
  }
}

}  // namespace syncbisim::allocator
