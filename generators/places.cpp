#include "generators/places.h"

#include <cstdint>

namespace syncbisim::generators {

namespace {

struct Counters {
  std::uint32_t loops = 0, conds = 0, instrs = 0;
};

void assign_body(std::vector<model::Stmt>& body, Counters& n) {
  for (auto& stmt : body) {
    if (auto* b = std::get_if<model::Block>(&stmt.node)) {
      for (auto& s : b->streams)
        for (auto& item : s.items)
          if (auto* in = std::get_if<model::Instr>(&item)) in->id = "I" + std::to_string(n.instrs++);
    } else if (auto* l = std::get_if<model::Loop>(&stmt.node)) {
      l->id = "L" + std::to_string(n.loops++);
      assign_body(l->body, n);
    } else {
      auto& c = std::get<model::Cond>(stmt.node);
      c.id = "C" + std::to_string(n.conds++);
      assign_body(c.then_body, n);
      assign_body(c.else_body, n);
    }
  }
}

void collect(const std::vector<model::Stmt>& body, std::vector<std::string>& loops, std::vector<InstrPlace>& out) {
  for (const auto& stmt : body) {
    if (const auto* b = std::get_if<model::Block>(&stmt.node)) {
      for (const auto& s : b->streams)
        for (const auto& item : s.items)
          if (const auto* in = std::get_if<model::Instr>(&item))
            out.push_back(InstrPlace{in->id, s.engine, loops, out.size()});
    } else if (const auto* l = std::get_if<model::Loop>(&stmt.node)) {
      loops.push_back(l->id);
      collect(l->body, loops, out);
      loops.pop_back();
    } else {
      const auto& c = std::get<model::Cond>(stmt.node);
      loops.push_back(model::then_loop(c.id));
      collect(c.then_body, loops, out);
      loops.back() = model::else_loop(c.id);
      collect(c.else_body, loops, out);
      loops.pop_back();
    }
  }
}

}  // namespace

void assign_ids(model::Program& p) {
  Counters n;
  assign_body(p.body, n);
}

std::vector<InstrPlace> instr_places(const model::Program& p) {
  std::vector<InstrPlace> out;
  std::vector<std::string> loops{model::kTopLoop};
  collect(p.body, loops, out);
  return out;
}

std::vector<std::string> common_loops(const InstrPlace& a, const InstrPlace& b) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.loops.size() && i < b.loops.size() && a.loops[i] == b.loops[i]; ++i)
    out.push_back(a.loops[i]);
  return out;
}

}  // namespace syncbisim::generators
