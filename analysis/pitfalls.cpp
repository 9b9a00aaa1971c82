#include "analysis/pitfalls.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "model/walk.h"

namespace syncbisim::analysis {

namespace {

std::string where_of(const model::Loc& loc, const std::string& otherwise) {
  return loc.where.empty() ? otherwise : loc.where;
}

}  // namespace

std::vector<Warning> written_order_pitfalls(const model::Program& spec) {
  std::vector<Warning> out;
  if (spec.has_footprints()) return out;
  // Pairs joined by a dependency, either way and at any distance: such a pair is ordered by it.
  std::set<std::pair<std::string, std::string>> joined;
  for (const auto& d : spec.deps) {
    joined.emplace(d.producer, d.consumer);
    joined.emplace(d.consumer, d.producer);
  }
  model::for_each_stmt(spec.body, [&](const model::Stmt& stmt, const model::LoopPath&) {
    const auto* b = std::get_if<model::Block>(&stmt.node);
    if (!b) return;
    // The instructions in the order written across engines, with their engines.
    std::vector<std::pair<const model::Instr*, const std::string*>> written;
    for (const auto& [s, i] : b->in_program_order())
      if (const auto* in = std::get_if<model::Instr>(&b->streams[s].items[i]))
        written.emplace_back(in, &b->streams[s].engine);
    for (std::size_t k = 1; k + 1 < written.size(); ++k) {
      const auto& [x, ex] = written[k - 1];
      const auto& [y, ey] = written[k];
      const auto& [z, ez] = written[k + 1];
      if (*ex != *ez || *ex == *ey) continue;
      if (joined.contains({y->id, x->id}) || joined.contains({y->id, z->id})) continue;
      out.push_back({where_of(y->loc, y->id),
                     *ey + ": " + y->id + " is written between " + *ex + ": " + x->id + " and " + *ez + ": " + z->id +
                         ", but no dependency joins it to either: lines of different engines in one region are "
                         "unordered (docs/semantics.md §1), so it may run before " +
                         x->id + " or after " + z->id + "; add the dependencies the kernel needs"});
    }
  });
  return out;
}

std::vector<Warning> same_engine_pitfalls(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                          const model::Program& impl) {
  std::vector<Warning> out;
  // Which impl instructions wait, and whether any barrier orders the engines instead.
  std::map<std::string, bool> waits;
  bool barrier = false;
  model::for_each_stream(impl.body, [&](const model::Stream& st) {
    for (const auto& item : st.items) {
      if (const auto* in = std::get_if<model::Instr>(&item)) waits[in->id] = !in->waits.empty();
      else if (std::holds_alternative<model::Barrier>(item)) barrier = true;
    }
  });
  if (barrier) return out;
  for (std::size_t i = 0; i < spec.deps.size(); ++i) {
    const auto& d = spec.deps[i];
    const auto p = spec_ix.instr(d.producer), c = spec_ix.instr(d.consumer);
    if (!p || !c || spec_ix.instrs[*p].engine != spec_ix.instrs[*c].engine) continue;
    const auto w = waits.find(d.consumer);
    if (w == waits.end() || w->second) continue;
    out.push_back({where_of(d.loc, "/deps/" + std::to_string(i)),
                   "dependency " + d.producer + " -> " + d.consumer + ": both on engine " +
                       spec_ix.engines[spec_ix.instrs[*c].engine] + ", and " + d.consumer +
                       " has no wait in the impl: an engine pipelines, so issuing in order does not order "
                       "retirements; the dependency needs a wait (docs/semantics.md §1)"});
  }
  return out;
}

}  // namespace syncbisim::analysis
