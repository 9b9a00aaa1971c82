#include "prover/places.h"

#include <stdexcept>

#include "model/walk.h"

namespace syncbisim::prover {

// model::walk's hooks, with the loop whose body is being walked (a branch's loop in a cond).
struct PlacesBuilder {
  Places& out;
  std::vector<model::LoopId> loops = {};  // the bodies being walked, innermost last

  void run(const std::vector<model::Stmt>& body) {
    open(model::kTop, body.size());
    model::walk(body, *this);
  }

  void stmt(const model::Stmt& st, std::size_t index) {
    const auto loop = loops.back();
    const auto si = static_cast<std::uint32_t>(index);
    auto& here = out.bodies_[loop][si];
    if (const auto* blk = std::get_if<model::Block>(&st.node)) {
      here.items.resize(out.ix_.engines.size());
      block(*blk, loop, si);
    } else if (const auto* l = std::get_if<model::Loop>(&st.node)) {
      const auto id = *out.ix_.loop(l->id);
      out.loop_stmt_[id] = si;
      here.block = false;
      here.loops = {id};
    } else {
      const auto& c = std::get<model::Cond>(st.node);
      const auto t = *out.ix_.loop(model::then_loop(c.id)), e = *out.ix_.loop(model::else_loop(c.id));
      out.loop_stmt_[t] = si;
      out.loop_stmt_[e] = si;
      here.block = false;
      here.loops = {t, e};
    }
  }
  void enter_loop(const model::Loop& l) { open(*out.ix_.loop(l.id), l.body.size()); }
  void leave_loop(const model::Loop&) { loops.pop_back(); }
  void enter_branch(const model::Cond& c, bool then) {
    open(*out.ix_.loop(then ? model::then_loop(c.id) : model::else_loop(c.id)),
         (then ? c.then_body : c.else_body).size());
  }
  void leave_branch(const model::Cond&, bool) { loops.pop_back(); }

  void open(model::LoopId loop, std::size_t statements) {
    out.bodies_[loop].resize(statements);
    loops.push_back(loop);
  }

  void block(const model::Block& b, model::LoopId loop, std::uint32_t si) {
    std::vector<std::size_t> barriers_of(out.ix_.engines.size(), 0);
    for (const auto& s : b.streams) {
      const auto engine = *out.ix_.engine(s.engine);
      auto& items = out.bodies_[loop][si].items[engine];
      for (std::uint32_t k = 0; k < s.items.size(); ++k) {
        const Place at{loop, si, k};
        const auto& item = s.items[k];
        if (const auto* in = std::get_if<model::Instr>(&item)) {
          const auto id = *out.ix_.instr(in->id);
          out.instrs_[id] = InstrPlace{engine, at, in->waits, in->signal};
          items.push_back({ItemRef::Kind::Instr, id});
        } else if (const auto* r = std::get_if<model::RegOp>(&item)) {
          items.push_back({ItemRef::Kind::Write, static_cast<std::uint32_t>(out.writes_.size())});
          out.writes_.push_back(RegWrite{engine, r->dst, r->expr, at});
        } else {
          const auto& bar = std::get<model::Barrier>(item);
          items.push_back({ItemRef::Kind::Barrier, static_cast<std::uint32_t>(out.barriers_.size())});
          out.barriers_.push_back(BarrierPlace{engine, at, bar.reset});
          ++barriers_of[engine];
        }
      }
    }
    for (std::size_t e = 1; e < barriers_of.size() && out.misaligned_.empty(); ++e)
      if (barriers_of[e] != barriers_of[0])
        out.misaligned_ = "a block of loop " + out.ix_.loops[loop].name + " has " + std::to_string(barriers_of[0]) +
                          " barrier(s) on " + out.ix_.engines[0] + " but " + std::to_string(barriers_of[e]) + " on " +
                          out.ix_.engines[e] + " (every engine must meet the same barriers)";
  }
};

Places Places::build(const model::Program& p, const model::ProgramIndex& ix) {
  Places out;
  out.ix_ = ix;
  out.loop_stmt_.assign(ix.loops.size(), 0);
  out.bodies_.resize(ix.loops.size());
  out.instrs_.resize(ix.instrs.size());
  PlacesBuilder{out}.run(p.body);
  return out;
}

std::uint32_t Places::stmt_in(model::LoopId a, model::LoopId l) const {
  while (parent(l) != a) {
    if (l == model::kTop) throw std::logic_error("prover: loop not below the given ancestor");
    l = parent(l);
  }
  return loop_stmt_[l];
}

std::uint32_t Places::stmt_in(model::LoopId a, const Place& x) const {
  return x.loop == a ? x.stmt : stmt_in(a, x.loop);
}

Order Places::order_in(model::LoopId a, const Place& x, const Place& y) const {
  const auto sx = stmt_in(a, x), sy = stmt_in(a, y);
  if (sx != sy) return sx < sy ? Order::Before : Order::After;
  if (x.loop == a && y.loop == a)
    return x.item < y.item ? Order::Before : (x.item > y.item ? Order::After : Order::SameStatement);
  return Order::SameStatement;
}

}  // namespace syncbisim::prover
