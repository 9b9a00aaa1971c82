#include "allocator/body_counts.h"

namespace syncbisim::allocator {

namespace {

struct Walker {
  const model::ProgramIndex& ix;
  BodyCounts& out;

  void walk(const std::vector<model::Stmt>& body, model::LoopId l) {
    auto& lc = out.loops[l];
    std::vector<std::uint32_t> running(ix.engines.size(), 0);
    for (std::uint32_t i = 0; i < body.size(); ++i) {
      lc.before.push_back(running);
      const auto& node = body[i].node;
      if (const auto* b = std::get_if<model::Block>(&node)) {
        for (const auto& st : b->streams) {
          const auto e = *ix.engine(st.engine);
          for (const auto& item : st.items)
            if (const auto* in = std::get_if<model::Instr>(&item)) {
              const auto id = *ix.instr(in->id);
              out.k[id] = ++running[e];
              out.stmt[id] = i;
            }
        }
      } else if (const auto* lp = std::get_if<model::Loop>(&node)) {
        const auto id = *ix.loop(lp->id);
        out.loops[id].stmt = i;
        walk(lp->body, id);
      } else {
        const auto& c = std::get<model::Cond>(node);
        const auto t = *ix.loop(model::then_loop(c.id)), e = *ix.loop(model::else_loop(c.id));
        out.loops[t].stmt = i;
        out.loops[e].stmt = i;
        walk(c.then_body, t);
        walk(c.else_body, e);
      }
    }
    lc.before.push_back(running);
    lc.n = running;
  }
};

}  // namespace

model::LoopId BodyCounts::child_of(const model::ProgramIndex& ix, model::LoopId l, model::LoopId S) {
  while (ix.loops[l].parent != S) l = ix.loops[l].parent;
  return l;
}

std::uint32_t BodyCounts::stmt_in(const model::ProgramIndex& ix, model::LoopId l, model::LoopId S) const {
  return loops[child_of(ix, l, S)].stmt;
}

std::uint32_t BodyCounts::instr_stmt_in(const model::ProgramIndex& ix, model::InstrId i, model::LoopId S) const {
  const auto parent = ix.instrs[i].parent;
  return parent == S ? stmt[i] : stmt_in(ix, parent, S);
}

BodyCounts count_bodies(const model::Program& spec, const model::ProgramIndex& ix) {
  BodyCounts out;
  out.loops.resize(ix.loops.size());
  for (auto& l : out.loops) l.n.assign(ix.engines.size(), 0);
  out.k.assign(ix.instrs.size(), 0);
  out.stmt.assign(ix.instrs.size(), 0);
  Walker{ix, out}.walk(spec.body, model::kTop);
  return out;
}

}  // namespace syncbisim::allocator
