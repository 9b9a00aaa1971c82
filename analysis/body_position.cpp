#include "analysis/body_position.h"

namespace syncbisim::analysis {

namespace {

class LayoutWalker {
 public:
  LayoutWalker(const model::ProgramIndex& ix, BodyLayout& out) : ix_(ix), out_(out) {}

  void walk(const std::vector<model::Stmt>& body, model::LoopId loop) {
    std::uint32_t index = 0;
    bool in_region = false;  // the previous statement was a block: merge with it
    for (const auto& stmt : body) {
      if (const auto* b = std::get_if<model::Block>(&stmt.node)) {
        if (!in_region) {
          open_region(loop);
          in_region = true;
          path_.push_back(index);
        }
        add_block(*b);
        continue;
      }
      if (in_region) {
        path_.pop_back();
        ++index;
        in_region = false;
      }
      path_.push_back(index);
      if (const auto* l = std::get_if<model::Loop>(&stmt.node)) {
        walk(l->body, ix_.loop(l->id).value_or(model::kTop));
      } else {
        const auto& c = std::get<model::Cond>(stmt.node);
        walk(c.then_body, ix_.loop(model::then_loop(c.id)).value_or(model::kTop));
        walk(c.else_body, ix_.loop(model::else_loop(c.id)).value_or(model::kTop));
      }
      path_.pop_back();
      ++index;
    }
    if (in_region) path_.pop_back();
  }

 private:
  void open_region(model::LoopId loop) {
    Region r;
    r.loop = loop;
    r.per_engine.resize(ix_.engines.size());
    out_.regions.push_back(std::move(r));
  }

  void add_block(const model::Block& b) {
    auto& region = out_.regions.back();
    const auto region_id = static_cast<std::uint32_t>(out_.regions.size() - 1);
    for (const auto& stream : b.streams) {
      const auto engine = ix_.engine(stream.engine);
      if (!engine) continue;  // the index rejects this; stay total anyway
      for (const auto& item : stream.items) {
        const auto* in = std::get_if<model::Instr>(&item);
        if (!in) continue;
        const auto id = ix_.instr(in->id);
        if (!id) continue;
        auto& lane = region.per_engine[*engine];
        out_.instrs[*id] = InstrPlace{path_, region_id, static_cast<std::uint32_t>(lane.size())};
        lane.push_back(*id);
        out_.engine_order[*engine].push_back(*id);
      }
    }
  }

  const model::ProgramIndex& ix_;
  BodyLayout& out_;
  std::vector<std::uint32_t> path_;  // statement index per loop level, @top first
};

}  // namespace

BodyLayout layout_of(const model::Program& p, const model::ProgramIndex& ix) {
  BodyLayout out;
  out.instrs.resize(ix.instrs.size());
  out.engine_order.resize(ix.engines.size());
  LayoutWalker(ix, out).walk(p.body, model::kTop);
  return out;
}

bool exclusive(const model::ProgramIndex& ix, const BodyLayout& layout, model::InstrId a, model::InstrId b) {
  const auto pa = ix.instrs[a].parent, pb = ix.instrs[b].parent;
  const auto m = ix.common(pa, pb);
  if (m == pa || m == pb) return false;  // one of them is directly in the common loop
  const auto d = ix.loops[m].depth;
  // Both are nested below m in the same statement: it can only be a cond (a loop statement
  // would itself be a common loop), with a and b in different branches.
  return layout.instrs[a].stmt[d] == layout.instrs[b].stmt[d];
}

}  // namespace syncbisim::analysis
