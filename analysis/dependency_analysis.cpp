#include "analysis/dependency_analysis.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analysis/body_position.h"
#include "analysis/deadlock.h"

namespace syncbisim::analysis {

const char* to_string(DepClass c) {
  switch (c) {
    case DepClass::ProducerInS: return "producer-in-S";
    case DepClass::NestedForward: return "nested-forward";
    case DepClass::NestedBackward: return "nested-backward";
    case DepClass::NotAllocatable: return "not-allocatable";
  }
  return "?";
}

namespace {

std::string where_of(const model::Dependency& d, std::size_t i) {
  return d.loc.where.empty() ? "/deps/" + std::to_string(i) : d.loc.where;
}

std::string name_of(const model::Dependency& d) { return d.producer + " -> " + d.consumer; }

// The most iterations one trip of `l` can run on any engine. A branch loop runs 0 or 1 times
// (its rule chooses the branch, not a count: docs/semantics.md §1).
std::uint32_t max_trip(const model::LoopInfo& l) {
  return l.kind != model::LoopKind::Loop || !l.trip ? 1 : model::rule_max(*l.trip);
}

// paper §5.2: order of producer and consumer in S's body. Positions are the top-level
// statements of S's body that hold them; a shared block is ordered only on one engine.
void order_in_S(const model::ProgramIndex& ix, const BodyLayout& layout, DependencyInfo& info) {
  const auto d = ix.loops[info.S].depth;
  const auto& p = layout.instrs[info.producer];
  const auto& c = layout.instrs[info.consumer];
  if (p.stmt[d] != c.stmt[d]) {
    info.forward = p.stmt[d] < c.stmt[d];
    return;
  }
  const auto consumer_parent = ix.instrs[info.consumer].parent;
  if (info.P == info.S || consumer_parent == info.S) {
    // One statement that holds an instruction directly in S is a block: both are in it.
    // Different engines: not ordered by the program, taken as forward (paper §5.2).
    info.forward = info.producer_engine != info.consumer_engine || p.order < c.order;
    return;
  }
  // The same cond statement, different branches (a shared branch would be a common loop).
  info.exclusive_branches = true;
  const auto branch = ix.path(info.P)[d + 1];
  info.forward = ix.loops[branch].kind == model::LoopKind::CondThen;  // then is written first
}

// docs/semantics.md §6: the allocatable class, or why there is none.
void classify(const model::ProgramIndex& ix, DependencyInfo& info) {
  for (std::size_t i = 0; i + 1 < info.common.size(); ++i)
    if (info.distance[i] != 0) {
      info.reason = "multi-level distance: offset " + std::to_string(info.distance[i]) + " at loop " +
                    ix.loops[info.common[i]].name + ", above the innermost common loop " + ix.loops[info.S].name +
                    " (paper §5.1 allocates only distances carried at S)";
      return;
    }
  const auto k = info.offset;
  const std::string ks = std::to_string(k);
  if (info.P == info.S) {
    info.cls = DepClass::ProducerInS;
    return;
  }
  const std::string P = ix.loops[info.P].name, S = ix.loops[info.S].name;
  if (info.exclusive_branches) {
    if (k <= 1) {
      info.cls = k == 0 ? DepClass::NestedForward : DepClass::NestedBackward;
      return;
    }
    info.reason = "producer and consumer in exclusive branches with offset " + ks + " at " + S + ": r_" + P +
                  " cannot recover how often " + P + " ran " + ks + " iterations of " + S +
                  " back (paper §5.2 admits offsets 0 and 1 only)";
    return;
  }
  if (info.forward && k == 0) {
    info.cls = DepClass::NestedForward;
    return;
  }
  if (!info.forward && k == 1) {
    info.cls = DepClass::NestedBackward;
    return;
  }
  if (info.forward) {
    info.reason = "nested forward producer with offset " + ks + ": r_" + P + " cannot recover how many times " + P +
                  " ran in earlier iterations of " + S + " (paper §5.2 admits offset 0 only)";
  } else if (k == 0) {
    info.reason = "nested backward producer with offset 0: the consumer waits on an iteration of " + S +
                  " that has not run (paper §5.2 calls it unsatisfiable)";
  } else {
    info.reason = "nested backward producer with offset " + ks + ": r_" + P + " cannot recover how many times " + P +
                  " ran in earlier iterations of " + S + " (paper §5.2 admits offset 1 only)";
  }
}

void warn(const model::ProgramIndex& ix, const model::Dependency& dep, std::size_t i, const DependencyInfo& info,
          std::vector<Warning>& out) {
  for (std::size_t j = 0; j < info.common.size(); ++j) {
    const auto k = info.distance[j];
    if (k == 0) continue;
    const auto& loop = ix.loops[info.common[j]];
    if (info.common[j] == model::kTop) {
      out.push_back({where_of(dep, i), "dependency " + name_of(dep) + " names @top with offset " + std::to_string(k) +
                                           ": @top runs once, so the target always underflows and the "
                                           "dependency never binds"});
      return;
    }
    if (const auto m = max_trip(loop); k >= m) {
      out.push_back({where_of(dep, i), "dependency " + name_of(dep) + " has offset " + std::to_string(k) + " at loop " +
                                           loop.name + ", whose trips run at most " + std::to_string(m) +
                                           " iterations: the target always underflows and the "
                                           "dependency never binds"});
      return;
    }
  }
  // docs/semantics.md §2 counts only iterations of P started so far, so a nested backward
  // dependency at offset 0 asks for exactly what offset 1 asks for after the first
  // iteration: most likely the offset is a mistake (docs/analysis.md).
  const bool carried_at_S =
      std::all_of(info.distance.begin(), info.distance.end() - 1, [](std::uint32_t d) { return d == 0; });
  if (carried_at_S && info.P != info.S && !info.forward && !info.exclusive_branches && info.offset == 0)
    out.push_back({where_of(dep, i), "dependency " + name_of(dep) +
                                         " is nested backward with offset 0: by docs/semantics.md §2 it "
                                         "binds like offset 1 (the paper calls it unsatisfiable)"});
}

}  // namespace

DependencyAnalysis analyze_dependencies(const model::Program& spec, const model::ProgramIndex& ix) {
  DependencyAnalysis out;
  const BodyLayout layout = layout_of(spec, ix);
  for (std::size_t i = 0; i < spec.deps.size(); ++i) {
    const auto& dep = spec.deps[i];
    DependencyInfo info;
    info.dep_index = i;
    auto shape = model::shape_of(dep, ix);
    if (!shape) {  // ProgramIndex::build rejects this; stay total anyway
      info.reason = "unknown instruction in dependency " + name_of(dep);
      out.deps.push_back(std::move(info));
      continue;
    }
    static_cast<model::DependencyShape&>(info) = std::move(*shape);
    info.offset = info.distance.back();
    order_in_S(ix, layout, info);
    classify(ix, info);
    warn(ix, dep, i, info, out.warnings);
    out.deps.push_back(std::move(info));
  }
  // A dependency written twice (the same producer, consumer and distance) adds nothing: most
  // likely a slip, said in every command that reads the spec (issue 42).
  std::map<std::tuple<std::string, std::string, std::map<std::string, std::uint32_t>, std::set<std::string>>,
           std::size_t>
      first;
  for (std::size_t i = 0; i < spec.deps.size(); ++i) {
    const auto& d = spec.deps[i];
    std::map<std::string, std::uint32_t> distance;
    for (const auto& [loop, k] : d.distance)
      if (k != 0) distance.emplace(loop, k);
    const auto [it, fresh] = first.emplace(std::make_tuple(d.producer, d.consumer, distance, d.every), i);
    if (!fresh)
      out.warnings.push_back({where_of(d, i), "dependency " + name_of(d) + " repeats dependency #" +
                                                  std::to_string(it->second) + " (" + where_of(spec.deps[it->second], it->second) +
                                                  "): the same producer, consumer and distance; it adds nothing"});
  }
  out.deadlocks = find_deadlocks(spec, ix, layout, out.deps);
  return out;
}

}  // namespace syncbisim::analysis
