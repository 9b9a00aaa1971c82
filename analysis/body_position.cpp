#include "analysis/body_position.h"

#include "model/walk.h"

namespace syncbisim::analysis {

namespace {

// A walk of the body (model/walk.h) that numbers the statements of each list, merging runs of
// consecutive blocks into one region, and places every instruction in its region and lane.
class LayoutWalker {
 public:
  LayoutWalker(const model::ProgramIndex& ix, BodyLayout& out) : ix_(ix), out_(out) {}

  void stmt(const model::Stmt& stmt, std::size_t) {
    auto& level = levels_.back();
    if (const auto* b = std::get_if<model::Block>(&stmt.node)) {
      if (!level.in_region) {  // a block after a loop or a cond, or the first: a new region
        open_region(level.loop);
        level.in_region = true;
        path_.push_back(level.index);
      }
      add_block(*b);
      return;
    }
    close_region(level);
    path_.push_back(level.index);  // the loop's or the cond's own index, until leave_statement()
  }
  void enter_loop(const model::Loop& l) { levels_.push_back(Level{ix_.loop(l.id).value_or(model::kTop)}); }
  void leave_loop(const model::Loop&) {
    leave_level();
    leave_statement();
  }
  void enter_branch(const model::Cond& c, bool then) {
    const auto name = then ? model::then_loop(c.id) : model::else_loop(c.id);
    levels_.push_back(Level{ix_.loop(name).value_or(model::kTop)});
  }
  void leave_branch(const model::Cond&, bool then) {
    leave_level();
    if (!then) leave_statement();  // the cond ends after its else branch
  }
  // After the walk: the region the body may end in.
  void finish() { leave_level(); }

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

  // One statement list being walked: its loop, the index of its current statement (a run of
  // blocks counts as one), and whether that statement is a run of blocks still open.
  struct Level {
    model::LoopId loop;
    std::uint32_t index = 0;
    bool in_region = false;
  };
  void close_region(Level& level) {
    if (!level.in_region) return;
    path_.pop_back();
    ++level.index;
    level.in_region = false;
  }
  void leave_level() {
    if (levels_.back().in_region) path_.pop_back();
    levels_.pop_back();
  }
  void leave_statement() {
    path_.pop_back();
    ++levels_.back().index;
  }

  const model::ProgramIndex& ix_;
  BodyLayout& out_;
  std::vector<std::uint32_t> path_;  // statement index per loop level, @top first
  std::vector<Level> levels_{Level{model::kTop}};
};

}  // namespace

BodyLayout layout_of(const model::Program& p, const model::ProgramIndex& ix) {
  BodyLayout out;
  out.instrs.resize(ix.instrs.size());
  out.engine_order.resize(ix.engines.size());
  LayoutWalker walker(ix, out);
  model::walk(p.body, walker);
  walker.finish();
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
