#include "analysis/deadlock.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

namespace syncbisim::analysis {

namespace {

// An edge u -> v: no instance of v (the one chosen in docs/analysis.md) can issue before
// the matching instance of u has issued (program order) or retired (a dependency).
struct EdgeInfo {
  bool is_dep = false;
  std::size_t dep = 0;  // index into the DependencyInfo list when is_dep
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, EdgeInfo>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

// Divergent control (paper §7.5) lets engines count iterations differently, so "the n-th
// retirement is this iteration's" no longer holds: such instructions take no part.
std::vector<bool> uniform_instrs(const model::ProgramIndex& ix) {
  std::vector<bool> out(ix.instrs.size(), true);
  for (std::size_t i = 0; i < ix.instrs.size(); ++i)
    for (const auto l : ix.path(ix.instrs[i].parent))
      if (ix.loops[l].trip && ix.loops[l].trip->divergent) out[i] = false;
  return out;
}

// Same-iteration dependencies whose consumer instance needs the producer's instance of the
// same iteration of S: all-zero distance and P = S, or P nested before the consumer. (A
// nested backward or exclusive-branch producer owes nothing for the current iteration:
// docs/semantics.md §2 counts only iterations of P started so far.)
bool same_iteration_edge(const DependencyInfo& d) {
  if (!std::all_of(d.distance.begin(), d.distance.end(), [](std::uint32_t k) { return k == 0; })) return false;
  return d.P == d.S || (d.forward && !d.exclusive_branches);
}

// The innermost loop below `m` on the way down to `l` (l strictly inside m).
model::LoopId child_below(const model::ProgramIndex& ix, model::LoopId l, model::LoopId m) {
  while (ix.loops[l].parent != m) l = ix.loops[l].parent;
  return l;
}

Graph build_graph(const model::ProgramIndex& ix, const BodyLayout& layout, const std::vector<DependencyInfo>& deps) {
  Graph g(ix.instrs.size());
  const auto uniform = uniform_instrs(ix);
  // Program order: each instruction after the nearest earlier one on its engine that can run
  // in the same iteration (not in the other branch of a cond).
  std::vector<std::size_t> first(ix.loops.size());
  for (const auto& lane : layout.engine_order) {
    // first[l]: the lane position of the first instruction inside loop l's subtree. A subtree's
    // instructions are contiguous in the lane (it is in pre-order), so the then-branch
    // instructions exclusive with b are skipped in one step: linear in the lane, not quadratic.
    constexpr auto kUnset = static_cast<std::size_t>(-1);
    std::fill(first.begin(), first.end(), kUnset);
    for (std::size_t j = 0; j < lane.size(); ++j)
      for (model::LoopId l = ix.instrs[lane[j]].parent; first[l] == kUnset; l = ix.loops[l].parent) {
        first[l] = j;
        if (l == model::kTop) break;
      }
    for (std::size_t j = 1; j < lane.size(); ++j) {
      const auto b = lane[j];
      if (!uniform[b]) continue;
      for (std::size_t i = j; i-- > 0;) {
        if (exclusive(ix, layout, lane[i], b)) {
          // lane[i] is in C.then and b in C.else of one cond C: so is everything of C.then's
          // subtree on this engine, which ends at i and starts at first[C.then].
          const auto pa = ix.instrs[lane[i]].parent;
          i = first[child_below(ix, pa, ix.common(pa, ix.instrs[b].parent))];
          continue;
        }
        if (uniform[lane[i]]) boost::add_edge(lane[i], b, EdgeInfo{false, 0}, g);
        break;
      }
    }
  }
  for (std::size_t i = 0; i < deps.size(); ++i) {
    const auto& d = deps[i];
    if (d.distance.empty() || !uniform[d.producer] || !uniform[d.consumer] || !same_iteration_edge(d)) continue;
    boost::add_edge(d.producer, d.consumer, EdgeInfo{true, i}, g);
  }
  return g;
}

// Breadth-first search state reused across components, reset only where a search touched it,
// so that all the searches together stay linear in the graph.
struct Search {
  explicit Search(std::size_t n) : dist(n, kUnreached), pred(n) {}
  static constexpr std::size_t kUnreached = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> dist;
  std::vector<Edge> pred;
  std::vector<Vertex> reached;  // in the order found
};

// A shortest cycle through `root` inside its strongly connected component, as edges: a
// breadth-first search from root within the component (out-edges in order, so the tree is the
// one Boost's breadth_first_search builds), closed by the edge back to root from the nearest
// vertex (the lowest-numbered among equally near ones).
std::vector<Edge> cycle_through(const Graph& g, Vertex root, const std::vector<int>& comp, Search& s) {
  for (const auto e : boost::make_iterator_range(boost::out_edges(root, g)))
    if (boost::target(e, g) == root) return {e};
  const int c = comp[root];
  s.reached.assign(1, root);
  s.dist[root] = 0;
  for (std::size_t head = 0; head < s.reached.size(); ++head) {
    const auto u = s.reached[head];
    for (const auto e : boost::make_iterator_range(boost::out_edges(u, g))) {
      const auto v = boost::target(e, g);
      if (comp[v] != c || s.dist[v] != Search::kUnreached) continue;
      s.dist[v] = s.dist[u] + 1;
      s.pred[v] = e;
      s.reached.push_back(v);
    }
  }
  auto members = s.reached;
  std::sort(members.begin(), members.end());
  std::optional<Edge> back;
  for (const auto u : members)
    for (const auto e : boost::make_iterator_range(boost::out_edges(u, g)))
      if (boost::target(e, g) == root && (!back || s.dist[u] < s.dist[boost::source(*back, g)])) back = e;
  std::vector<Edge> out;
  if (back) {
    out.push_back(*back);
    for (Vertex v = boost::source(*back, g); v != root; v = boost::source(s.pred[v], g)) out.push_back(s.pred[v]);
    std::reverse(out.begin(), out.end());
  }
  for (const auto v : s.reached) s.dist[v] = Search::kUnreached;
  return out;
}

// True if no two instructions of the cycle sit in different branches of one cond (such
// instances never run in one iteration: analysis::exclusive), found from the branch loops
// above each instruction rather than pair by pair.
bool feasible(const model::ProgramIndex& ix, const Graph& g, const std::vector<Edge>& cycle) {
  std::set<std::pair<std::string, model::LoopKind>> branches;  // (cond, then or else) above some instruction
  for (const auto e : cycle)
    for (model::LoopId l = ix.instrs[boost::source(e, g)].parent; l != model::kTop; l = ix.loops[l].parent)
      if (ix.loops[l].kind == model::LoopKind::CondThen || ix.loops[l].kind == model::LoopKind::CondElse)
        branches.emplace(ix.loops[l].cond, ix.loops[l].kind);
  for (const auto& [cond, kind] : branches)
    if (kind == model::LoopKind::CondThen && branches.count({cond, model::LoopKind::CondElse})) return false;
  return true;
}

std::string describe(const model::ProgramIndex& ix, const Graph& g, const std::vector<Edge>& cycle,
                     const std::vector<DependencyInfo>& deps) {
  std::set<model::LoopId> loops;
  for (const auto e : cycle)
    for (const auto l : ix.path(ix.instrs[boost::source(e, g)].parent))
      if (l != model::kTop) loops.insert(l);
  std::string runs, taken;
  for (const auto l : loops) {
    auto& list = ix.loops[l].kind == model::LoopKind::Loop ? runs : taken;
    list += (list.empty() ? "" : ", ") + ix.loops[l].name;
  }
  std::string msg = "certain deadlock";
  if (!runs.empty() || !taken.empty()) {
    msg += " whenever";
    const bool one_loop = runs.find(',') == std::string::npos, one_branch = taken.find(',') == std::string::npos;
    if (!runs.empty()) msg += (one_loop ? " loop " : " loops ") + runs + (one_loop ? " runs" : " run");
    if (!runs.empty() && !taken.empty()) msg += " and";
    if (!taken.empty())
      msg += (one_branch ? " branch " : " branches ") + taken + (one_branch ? " is taken" : " are taken");
  }
  msg += ":";
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const auto& u = ix.instrs[boost::source(cycle[i], g)];
    const auto& v = ix.instrs[boost::target(cycle[i], g)];
    const auto& info = g[cycle[i]];
    msg += i == 0 ? " " : "; ";
    if (info.is_dep)
      msg += v.name + " waits for " + u.name + " of the same iteration (dependency #" +
             std::to_string(deps[info.dep].dep_index) + ")";
    else msg += v.name + " issues after " + u.name + " on engine " + ix.engines[v.engine];
  }
  return msg;
}

}  // namespace

std::vector<Deadlock> find_deadlocks(const model::Program&, const model::ProgramIndex& ix, const BodyLayout& layout,
                                     const std::vector<DependencyInfo>& deps) {
  const Graph g = build_graph(ix, layout, deps);
  std::vector<int> comp(boost::num_vertices(g));
  const int n =
      boost::strong_components(g, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
  std::vector<bool> reported(static_cast<std::size_t>(n), false);
  std::vector<Deadlock> out;
  Search search(boost::num_vertices(g));
  // One cycle per component, rooted at its first instruction in program order.
  for (Vertex v = 0; v < boost::num_vertices(g); ++v) {
    const auto c = static_cast<std::size_t>(comp[v]);
    if (reported[c]) continue;
    const auto cycle = cycle_through(g, v, comp, search);
    if (cycle.empty()) continue;  // a single vertex without a self-loop
    reported[c] = true;
    // Instances of both branches of one cond never run in one iteration: not certain.
    if (!feasible(ix, g, cycle)) continue;
    Deadlock d;
    for (const auto e : cycle) d.cycle.push_back(static_cast<model::InstrId>(boost::source(e, g)));
    d.message = describe(ix, g, cycle, deps);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace syncbisim::analysis
