// find_deadlocks is linear in the program (docs/allocator.md "Complexity"): one breadth-first
// search per strongly connected component, exclusive branches skipped a subtree at a time, the
// branch test of a cycle from its loops. This property holds it to the definition it replaced
// (written out here the direct way: a filtered Boost BFS per vertex, every earlier instruction
// tried in turn, every pair of the cycle tested) on random specs, deadlocks and conds included.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <optional>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/strong_components.hpp>

#include "analysis/deadlock.h"
#include "analysis/dependency_analysis.h"
#include "generators/spec_gen.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;

namespace {

struct EdgeInfo {
  bool is_dep = false;
  std::size_t dep = 0;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, EdgeInfo>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

// The reference: every cycle as a list of (source instruction, target instruction, is_dep, dep),
// found the way the definition reads.
using Cycle = std::vector<std::tuple<model::InstrId, model::InstrId, bool, std::size_t>>;

Graph reference_graph(const model::ProgramIndex& ix, const analysis::BodyLayout& layout,
                      const std::vector<analysis::DependencyInfo>& deps) {
  Graph g(ix.instrs.size());
  std::vector<bool> uniform(ix.instrs.size(), true);
  for (std::size_t i = 0; i < ix.instrs.size(); ++i)
    for (const auto l : ix.path(ix.instrs[i].parent))
      if (ix.loops[l].trip && ix.loops[l].trip->divergent) uniform[i] = false;
  for (const auto& lane : layout.engine_order)
    for (std::size_t j = 1; j < lane.size(); ++j) {
      const auto b = lane[j];
      if (!uniform[b]) continue;
      for (std::size_t i = j; i-- > 0;) {
        if (analysis::exclusive(ix, layout, lane[i], b)) continue;
        if (uniform[lane[i]]) boost::add_edge(lane[i], b, EdgeInfo{false, 0}, g);
        break;
      }
    }
  for (std::size_t i = 0; i < deps.size(); ++i) {
    const auto& d = deps[i];
    if (d.distance.empty() || !uniform[d.producer] || !uniform[d.consumer]) continue;
    if (!std::all_of(d.distance.begin(), d.distance.end(), [](std::uint32_t k) { return k == 0; })) continue;
    if (!(d.P == d.S || (d.forward && !d.exclusive_branches))) continue;
    boost::add_edge(d.producer, d.consumer, EdgeInfo{true, i}, g);
  }
  return g;
}

struct InComponent {
  const std::vector<int>* comp = nullptr;
  int c = 0;
  bool operator()(Vertex v) const { return (*comp)[v] == c; }
};

std::vector<Edge> reference_cycle(const Graph& g, Vertex root, const std::vector<int>& comp) {
  for (const auto e : boost::make_iterator_range(boost::out_edges(root, g)))
    if (boost::target(e, g) == root) return {e};
  const InComponent in_comp{&comp, comp[root]};
  const boost::filtered_graph<Graph, boost::keep_all, InComponent> fg(g, boost::keep_all{}, in_comp);
  std::vector<Edge> pred(boost::num_vertices(g));
  std::vector<std::size_t> dist(boost::num_vertices(g), std::numeric_limits<std::size_t>::max());
  dist[root] = 0;
  boost::breadth_first_search(fg, root,
                              boost::visitor(boost::make_bfs_visitor(
                                  std::make_pair(boost::record_edge_predecessors(pred.data(), boost::on_tree_edge{}),
                                                 boost::record_distances(dist.data(), boost::on_tree_edge{})))));
  std::optional<Edge> back;
  for (Vertex u = 0; u < boost::num_vertices(g); ++u) {
    if (!in_comp(u) || dist[u] == std::numeric_limits<std::size_t>::max()) continue;
    for (const auto e : boost::make_iterator_range(boost::out_edges(u, g)))
      if (boost::target(e, g) == root && (!back || dist[u] < dist[boost::source(*back, g)])) back = e;
  }
  if (!back) return {};
  std::vector<Edge> out{*back};
  for (Vertex v = boost::source(*back, g); v != root; v = boost::source(pred[v], g)) out.push_back(pred[v]);
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<Cycle> reference_deadlocks(const model::ProgramIndex& ix, const analysis::BodyLayout& layout,
                                       const std::vector<analysis::DependencyInfo>& deps) {
  const Graph g = reference_graph(ix, layout, deps);
  std::vector<int> comp(boost::num_vertices(g));
  const int n =
      boost::strong_components(g, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
  std::vector<bool> reported(static_cast<std::size_t>(n), false);
  std::vector<Cycle> out;
  for (Vertex v = 0; v < boost::num_vertices(g); ++v) {
    const auto c = static_cast<std::size_t>(comp[v]);
    if (reported[c]) continue;
    const auto cycle = reference_cycle(g, v, comp);
    if (cycle.empty()) continue;
    reported[c] = true;
    bool feasible = true;
    for (std::size_t i = 0; i < cycle.size() && feasible; ++i)
      for (std::size_t j = i + 1; j < cycle.size() && feasible; ++j)
        if (analysis::exclusive(ix, layout, boost::source(cycle[i], g), boost::source(cycle[j], g))) feasible = false;
    if (!feasible) continue;
    Cycle cy;
    for (const auto e : cycle)
      cy.emplace_back(static_cast<model::InstrId>(boost::source(e, g)),
                      static_cast<model::InstrId>(boost::target(e, g)), g[e].is_dep, g[e].dep);
    out.push_back(std::move(cy));
  }
  return out;
}

}  // namespace

TEST_CASE("deadlocks: the linear search finds the cycles of the definition (property)") {
  test::rc_check("find_deadlocks == the per-vertex search", [] {
    generators::SpecGenOptions opt;
    opt.max_engines = 3;
    opt.max_items = 4;
    opt.max_deps = 14;
    const auto spec = *generators::gen_spec(opt);
    const auto ix = model::ProgramIndex::build(spec);
    RC_ASSERT(ix.ok());
    const auto a = analysis::analyze_dependencies(spec, *ix);
    const auto layout = analysis::layout_of(spec, *ix);
    const auto expected = reference_deadlocks(*ix, layout, a.deps);
    RC_TAG(expected.empty() ? "no deadlock" : "deadlock");
    RC_ASSERT(a.deadlocks.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      std::vector<model::InstrId> sources;
      for (const auto& [from, to, is_dep, dep] : expected[i]) sources.push_back(from);
      RC_ASSERT(a.deadlocks[i].cycle == sources);
      // The message names every edge as the definition's cycle has it.
      for (const auto& [from, to, is_dep, dep] : expected[i]) {
        const auto& u = ix->instrs[from].name;
        const auto& v = ix->instrs[to].name;
        const auto piece = is_dep ? v + " waits for " + u + " of the same iteration (dependency #" +
                                        std::to_string(a.deps[dep].dep_index) + ")"
                                  : v + " issues after " + u + " on engine " + ix->engines[ix->instrs[to].engine];
        RC_ASSERT(a.deadlocks[i].message.find(piece) != std::string::npos);
      }
    }
  });
}
