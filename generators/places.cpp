#include "generators/places.h"

#include <cstdint>

#include "model/walk.h"

namespace syncbisim::generators {

namespace {

struct Counters {
  std::uint32_t loops = 0, conds = 0, instrs = 0;
};

}  // namespace

void assign_ids(model::Program& p) {
  Counters n;
  model::for_each_stmt(p.body, [&](model::Stmt& stmt, const model::LoopPath&) {
    if (auto* b = std::get_if<model::Block>(&stmt.node)) {
      for (auto& s : b->streams)
        for (auto& item : s.items)
          if (auto* in = std::get_if<model::Instr>(&item)) in->id = "I" + std::to_string(n.instrs++);
    } else if (auto* l = std::get_if<model::Loop>(&stmt.node)) {
      l->id = "L" + std::to_string(n.loops++);
    } else {
      std::get<model::Cond>(stmt.node).id = "C" + std::to_string(n.conds++);
    }
  });
}

std::vector<InstrPlace> instr_places(const model::Program& p) {
  std::vector<InstrPlace> out;
  model::for_each_stream_in(p.body, [&](const model::Stream& s, const model::LoopPath& loops) {
    for (const auto& item : s.items)
      if (const auto* in = std::get_if<model::Instr>(&item))
        out.push_back(InstrPlace{in->id, s.engine, loops, out.size()});
  });
  return out;
}

std::map<std::string, LoopReach> loop_reach(const model::Program& p) {
  std::map<std::string, LoopReach> out{{model::kTopLoop, LoopReach{}}};
  model::for_each_stmt(p.body, [&](const model::Stmt& stmt, const model::LoopPath& path) {
    const bool outer_runs = out[path.back()].runs;
    if (const auto* l = std::get_if<model::Loop>(&stmt.node)) {
      const std::uint32_t most = l->trip ? model::rule_max(*l->trip) : 1;
      out[l->id] = LoopReach{most, outer_runs && most > 0, true};
    } else if (const auto* c = std::get_if<model::Cond>(&stmt.node)) {
      // docs/semantics.md §1: the rule's value 0 takes the then branch, any other the else branch.
      const bool then_taken = !c->taken || model::rule_min(*c->taken) == 0;
      const bool else_taken = !c->taken || model::rule_max(*c->taken) > 0;
      out[model::then_loop(c->id)] = LoopReach{1, outer_runs && then_taken, false};
      out[model::else_loop(c->id)] = LoopReach{1, outer_runs && else_taken, false};
    }
  });
  return out;
}

std::vector<std::string> common_loops(const InstrPlace& a, const InstrPlace& b) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.loops.size() && i < b.loops.size() && a.loops[i] == b.loops[i]; ++i)
    out.push_back(a.loops[i]);
  return out;
}

}  // namespace syncbisim::generators
