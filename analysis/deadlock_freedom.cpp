#include "analysis/deadlock_freedom.h"

#include <algorithm>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include "analysis/body_position.h"
#include "model/walk.h"

namespace syncbisim::analysis {

namespace {

using OrderGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// Whether engines a and b may run different trips of a loop (or take different branches of a
// cond) under `rule`: only a per-engine rule lets them, and not when both see one fixed choice.
bool may_disagree(const model::TripRule& rule, const std::string& a, const std::string& b) {
  if (!rule.divergent) return false;
  const auto& ca = rule.for_engine(a);
  if (ca != rule.for_engine(b)) return true;
  const auto* range = std::get_if<model::RangeTrip>(&ca);
  return range && range->min != range->max;
}

// Whether some two engines may disagree under `rule`.
bool any_may_disagree(const model::TripRule& rule, const std::vector<std::string>& engines) {
  for (std::size_t a = 0; a < engines.size(); ++a)
    for (std::size_t b = a; b < engines.size(); ++b)
      if (may_disagree(rule, engines[a], engines[b])) return true;
  return false;
}

// Finds the first barrier below a divergent rule, in a walk of the impl's body (model/walk.h):
// `within` names, for each loop and cond branch the walk is in, the innermost loop or cond around
// it whose rule is divergent, "" when none.
struct DivergentBarrier {
  const model::ProgramIndex& spec_ix;
  std::vector<std::string> within{""};
  std::string found;

  // `what` when the rule of `loop_name` lets engines disagree, else the enclosing answer.
  std::string divergent(const std::string& loop_name, std::string what) const {
    const auto l = spec_ix.loop(loop_name);
    if (!l || !spec_ix.loops[*l].trip || !any_may_disagree(*spec_ix.loops[*l].trip, spec_ix.engines))
      return within.back();
    return what;
  }
  bool stmt(const model::Stmt& stmt, std::size_t) {
    const auto* block = std::get_if<model::Block>(&stmt.node);
    if (!block || within.back().empty()) return false;
    for (const auto& stream : block->streams)
      for (const auto& item : stream.items)
        if (std::holds_alternative<model::Barrier>(item)) {
          found = "a barrier on engine " + stream.engine + " lies under " + within.back() +
                  "'s per-engine rule (divergent control, paper §7.5): an engine may wait there for one that "
                  "runs fewer iterations and never arrives";
          return true;
        }
    return false;
  }
  void enter_loop(const model::Loop& loop) { within.push_back(divergent(loop.id, "loop " + loop.id)); }
  void leave_loop(const model::Loop&) { within.pop_back(); }
  // Both branches answer to the cond's rule, which the index keeps under its then-loop.
  void enter_branch(const model::Cond& cond, bool) { within.push_back(divergent(cond.id + ".then", "cond " + cond.id)); }
  void leave_branch(const model::Cond&, bool) { within.pop_back(); }
};

std::string divergent_barrier(const std::vector<model::Stmt>& body, const model::ProgramIndex& spec_ix) {
  DivergentBarrier v{spec_ix};
  model::walk(body, v);
  return v.found;
}

std::string name_of(const model::ProgramIndex& ix, const DependencyInfo& d) {
  return ix.instrs[d.producer].name + " -> " + ix.instrs[d.consumer].name;
}

// A loop above either end whose rule lets the two engines disagree (paper §7.5): the consumer
// counts what it owes from its own engine's trips, which need not be the producer's.
std::string divergence_reason(const model::ProgramIndex& ix, const DependencyInfo& d) {
  if (d.producer_engine == d.consumer_engine) return "";
  const auto& ep = ix.engines[d.producer_engine];
  const auto& ec = ix.engines[d.consumer_engine];
  for (const auto end : {ix.instrs[d.producer].parent, ix.instrs[d.consumer].parent})
    for (const auto l : ix.path(end)) {
      const auto& loop = ix.loops[l];
      if (!loop.trip || !may_disagree(*loop.trip, ep, ec)) continue;
      const auto what = loop.kind == model::LoopKind::Loop ? "loop " + loop.name : "cond " + loop.cond;
      return "dependency " + name_of(ix, d) + " joins engines " + ep + " and " + ec + " under " + what +
             "'s per-engine rule (divergent control, paper §7.5): the engines may run different trips, and " +
             ix.instrs[d.consumer].name + " may wait for an instance of " + ix.instrs[d.producer].name +
             " that never runs";
    }
  return "";
}

}  // namespace

// The argument (docs/analysis.md "Deadlock freedom"): order all instances as one walk of the tree
// would meet them (iterations in order; inside one region, a topological order of the engines'
// streams and the region's distance-0 dependencies). If every instance a dependency makes a
// consumer wait for comes strictly earlier, then in a stuck state the earliest pending instance
// waits only for earlier ones, which its engines have already issued: a contradiction.
DeadlockFreedom deadlock_freedom(const model::Program& spec, const model::ProgramIndex& ix,
                                 const std::vector<DependencyInfo>& deps) {
  const BodyLayout layout = layout_of(spec, ix);
  OrderGraph region_order(ix.instrs.size());
  for (const auto& region : layout.regions)
    for (const auto& stream : region.per_engine)
      for (std::size_t i = 1; i < stream.size(); ++i) boost::add_edge(stream[i - 1], stream[i], region_order);
  bool region_edges = false;
  for (const auto& d : deps) {
    // The first entry that is not 0, outermost first: a positive distance points to an earlier
    // iteration of that loop (paper §3: distances are non-negative), hence to earlier instances;
    // at @top, which runs once, to none: such a dependency never binds (docs/semantics.md §1).
    std::size_t i = 0;
    while (i < d.whole_from && d.distance[i] == 0) ++i;
    if (i == 0 && i < d.whole_from) continue;
    if (auto why = divergence_reason(ix, d); !why.empty()) return {false, why};
    if (i < d.whole_from) continue;
    if (d.whole_iterations())
      return {false, "dependency " + name_of(ix, d) + " owes whole iterations of loop " +
                         ix.loops[d.common[d.whole_from]].name +
                         " with no positive distance above it, so it may wait for instances not yet started"};
    // Distance 0: only instances of the current iteration of S can be owed. A producer in the
    // other branch of a cond, or nested in a loop that comes later in S's body, owes none of them
    // (docs/semantics.md §2 counts iterations started so far); one nested earlier ran before.
    if (d.exclusive_branches || d.P != d.S) continue;
    const auto depth = ix.loops[d.S].depth;
    const auto& p = layout.instrs[d.producer];
    const auto& c = layout.instrs[d.consumer];
    if (p.stmt[depth] != c.stmt[depth]) {
      if (p.stmt[depth] < c.stmt[depth]) continue;
      return {false, "dependency " + name_of(ix, d) + " has distance 0 in loop " + ix.loops[d.S].name + " but " +
                         ix.instrs[d.producer].name + " comes after " + ix.instrs[d.consumer].name + " in its body, so " +
                         ix.instrs[d.consumer].name + " waits for an instance later in the walk"};
    }
    if (d.producer == d.consumer)
      return {false, "dependency " + name_of(ix, d) + " has distance 0: the instruction waits for itself"};
    // One region: ordered together with the engines' streams below.
    boost::add_edge(d.producer, d.consumer, region_order);
    region_edges = true;
  }
  if (!region_edges) return {true, ""};
  std::vector<int> comp(ix.instrs.size());
  const auto n = boost::strong_components(
      region_order, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, region_order)));
  std::vector<std::vector<model::InstrId>> members(static_cast<std::size_t>(n));
  for (std::size_t v = 0; v < comp.size(); ++v)
    members[static_cast<std::size_t>(comp[v])].push_back(static_cast<model::InstrId>(v));
  for (const auto& m : members) {
    if (m.size() < 2) continue;
    std::string names;
    for (const auto v : m) names += (names.empty() ? "" : ", ") + ix.instrs[v].name;
    return {false, "dependencies of distance 0 and the engines' order form a cycle among " + names +
                       " in one region: none of them can issue first"};
  }
  return {true, ""};
}

DeadlockFreedom barrier_freedom(const model::Program& impl, const model::ProgramIndex& spec_ix) {
  auto why = divergent_barrier(impl.body, spec_ix);
  return {why.empty(), std::move(why)};
}

}  // namespace syncbisim::analysis
