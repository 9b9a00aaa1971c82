#include "allocator/body_counts.h"

#include "model/walk.h"

namespace syncbisim::allocator {

namespace {

// model::walk's hooks: one frame per statement list being walked (the program's body, a loop's,
// a branch's), counting each engine's direct instructions as its statements go by.
class Walker {
 public:
  Walker(const model::ProgramIndex& ix, BodyCounts& out) : ix_(ix), out_(out) {}

  void run(const std::vector<model::Stmt>& body) {
    open(model::kTop);
    model::walk(body, *this);
    close();
  }

  void stmt(const model::Stmt& st, std::size_t index) {
    auto& f = frames_.back();
    const auto i = static_cast<std::uint32_t>(index);
    out_.loops[f.loop].before.push_back(f.running);
    if (const auto* b = std::get_if<model::Block>(&st.node)) {
      for (const auto& s : b->streams) {
        const auto e = *ix_.engine(s.engine);
        for (const auto& item : s.items)
          if (const auto* in = std::get_if<model::Instr>(&item)) {
            const auto id = *ix_.instr(in->id);
            out_.k[id] = ++f.running[e];
            out_.stmt[id] = i;
          }
      }
    } else if (const auto* l = std::get_if<model::Loop>(&st.node)) {
      out_.loops[*ix_.loop(l->id)].stmt = i;
    } else {
      const auto& c = std::get<model::Cond>(st.node);
      out_.loops[*ix_.loop(model::then_loop(c.id))].stmt = i;
      out_.loops[*ix_.loop(model::else_loop(c.id))].stmt = i;
    }
  }
  void enter_loop(const model::Loop& l) { open(*ix_.loop(l.id)); }
  void leave_loop(const model::Loop&) { close(); }
  void enter_branch(const model::Cond& c, bool then) {
    open(*ix_.loop(then ? model::then_loop(c.id) : model::else_loop(c.id)));
  }
  void leave_branch(const model::Cond&, bool) { close(); }

 private:
  struct Frame {
    model::LoopId loop;
    std::vector<std::uint32_t> running;  // per engine: its direct instructions so far
  };
  const model::ProgramIndex& ix_;
  BodyCounts& out_;
  std::vector<Frame> frames_;

  void open(model::LoopId l) { frames_.push_back({l, std::vector<std::uint32_t>(ix_.engines.size(), 0)}); }
  void close() {
    auto& f = frames_.back();
    auto& lc = out_.loops[f.loop];
    lc.before.push_back(f.running);
    lc.n = std::move(f.running);
    frames_.pop_back();
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
  Walker(ix, out).run(spec.body);
  return out;
}

}  // namespace syncbisim::allocator
