#include "allocator/plan.h"

#include <algorithm>
#include <iterator>

#include "allocator/expr_build.h"
#include "model/walk.h"

namespace syncbisim::allocator {

namespace {

struct Emitter {
  const model::ProgramIndex& ix;
  Plan& plan;  // its instructions' parts are moved into the impl: each is emitted once
  const Registers& regs;
  std::uint32_t region = 0;  // the next block's region (blocks come in the layout's pre-order)
  model::InstrId next_instr = 0;  // the index's next instruction: the walk visits them in its order

  // An instruction's id: the next one of the index's pre-order when the name agrees (always, as
  // the walk is the index's), else looked up.
  model::InstrId id_of(const model::Instr& in) {
    if (next_instr < ix.instrs.size() && ix.instrs[next_instr].name == in.id) return next_instr++;
    const auto id = *ix.instr(in.id);
    next_instr = id + 1;
    return id;
  }

  static model::Item regop(const std::string& dst, model::Expr e) { return model::RegOp{dst, std::move(e), {}}; }

  // A block with, on every engine, the items `make(e)` returns (empty streams are dropped later).
  template <class F>
  model::Stmt every_engine(F make) const {
    model::Block b;
    for (model::EngineId e = 0; e < ix.engines.size(); ++e) b.streams.push_back({ix.engines[e], make(e)});
    return model::Stmt{std::move(b)};
  }

  // Before a loop statement: rh_ℓ := 0 (paper §5.1) for each of `loops`, the values hoisted out
  // of them, then the barrier.
  void before(std::vector<model::Stmt>& out, const std::vector<model::LoopId>& loops, const LoopPlan& lp) {
    out.push_back(every_engine([&](model::EngineId e) {
      std::vector<model::Item> items;
      for (auto l : loops)
        if (regs.keeps_rh(l, e)) items.push_back(regop(regs.rh_name(l), num(0)));
      for (auto l : loops)
        for (const auto& op : plan.loops[l].hoisted[e]) items.push_back(op);
      if (lp.before) items.push_back(*lp.before);
      return items;
    }));
  }

  // model::walk's hooks. The statement lists being built: the program's, then one per open loop
  // body or branch, each with the loop it is the body of (a cond's branch is its branch loop).
  struct Open {
    model::LoopId loop;
    std::vector<model::Stmt> out;
  };
  std::vector<Open> open;

  // The impl's statement list for the spec's `body`.
  std::vector<model::Stmt> run(const std::vector<model::Stmt>& body) {
    open.push_back(Open{model::kTop, {}});
    model::walk(body, *this);
    return std::move(open.front().out);
  }

  void stmt(const model::Stmt& st, std::size_t i) {
    auto& out = open.back().out;
    if (auto it = plan.stmt_barriers.find({open.back().loop, static_cast<std::uint32_t>(i)});
        it != plan.stmt_barriers.end())
      out.push_back(every_engine([&](model::EngineId) { return std::vector<model::Item>{it->second}; }));
    if (const auto* b = std::get_if<model::Block>(&st.node)) {
      out.push_back(block(*b));
    } else if (const auto* lp = std::get_if<model::Loop>(&st.node)) {
      const auto id = *ix.loop(lp->id);
      before(out, {id}, plan.loops[id]);
      out.push_back(model::Stmt{model::Loop{lp->id, lp->trip, {}, lp->loc}});  // its body: leave_loop
    } else {
      const auto& c = std::get<model::Cond>(st.node);
      const auto t = *ix.loop(model::then_loop(c.id)), e = *ix.loop(model::else_loop(c.id));
      // one statement, one barrier: both branch loops share the plan of the then-loop
      before(out, {t, e}, plan.loops[t]);
      out.push_back(model::Stmt{model::Cond{c.id, c.taken, {}, {}, c.loc}});  // its branches: leave_branch
    }
  }
  void enter_loop(const model::Loop& l) { start(*ix.loop(l.id)); }
  void leave_loop(const model::Loop&) {
    auto body = finish();
    std::get<model::Loop>(open.back().out.back().node).body = std::move(body);
  }
  void enter_branch(const model::Cond& c, bool then) {
    start(*ix.loop(then ? model::then_loop(c.id) : model::else_loop(c.id)));
  }
  void leave_branch(const model::Cond&, bool then) {
    auto body = finish();
    auto& c = std::get<model::Cond>(open.back().out.back().node);
    (then ? c.then_body : c.else_body) = std::move(body);
  }

  // One iteration body of loop ℓ: the snapshot rings move, r_ℓ += 1, rh_ℓ += 1 at the top (start),
  // the body, the end barrier (finish).
  void start(model::LoopId l) {
    open.push_back(Open{l, {}});
    open.back().out.push_back(every_engine([&](model::EngineId e) {
      std::vector<model::Item> items;
      for (auto& op : regs.ring_updates(l, e)) items.push_back(std::move(op));
      if (regs.keeps_r(l, e)) items.push_back(regop(regs.r_name(l), add(model::Expr::reg(regs.r_name(l)), num(1))));
      if (regs.keeps_rh(l, e)) items.push_back(regop(regs.rh_name(l), add(model::Expr::reg(regs.rh_name(l)), num(1))));
      return items;
    }));
  }
  std::vector<model::Stmt> finish() {
    const auto l = open.back().loop;
    auto out = std::move(open.back().out);
    open.pop_back();
    const auto& tail = plan.loops[l].tail;
    if (std::any_of(tail.begin(), tail.end(), [](const auto& ops) { return !ops.empty(); }))
      out.push_back(
          every_engine([&](model::EngineId e) { return std::vector<model::Item>(tail[e].begin(), tail[e].end()); }));
    if (plan.loops[l].at_end)
      out.push_back(every_engine([&](model::EngineId) { return std::vector<model::Item>{*plan.loops[l].at_end}; }));
    return out;
  }

  // A block of the spec as the impl has it: each instruction with its waits and signal, the
  // register operations before it, and the barriers of the block's cuts.
  model::Stmt block(const model::Block& b) {
    const auto cut = plan.cuts.find(region++);
    model::Block nb;
    nb.loc = b.loc;
    for (const auto& s : b.streams) {
      model::Stream ns{s.engine, {}};
      const auto e = *ix.engine(s.engine);
      std::uint32_t n = 0;
      const auto barriers_at = [&](std::uint32_t at) {
        if (cut == plan.cuts.end()) return;
        for (const auto& c : cut->second)
          if (c[e] == at) ns.items.push_back(model::Barrier{std::vector<std::string>{}, {}});
      };
      for (const auto& item : s.items) {
        barriers_at(n);
        ++n;
        const auto& in = std::get<model::Instr>(item);
        auto& ip = plan.instrs[id_of(in)];
        for (auto& r : ip.pre) ns.items.push_back(std::move(r));
        // Extra fields describe the spec's instruction (cost models read them there):
        // an impl instruction carries none (docs/formats.md).
        model::Instr out_in{in.id, std::move(ip.waits), std::move(ip.signal), {}, in.loc};
        ns.items.push_back(std::move(out_in));
      }
      barriers_at(n);
      nb.streams.push_back(std::move(ns));
    }
    // An engine without instructions in the region still meets the barriers.
    if (cut != plan.cuts.end())
      for (model::EngineId e = 0; e < ix.engines.size(); ++e)
        if (!b.find(ix.engines[e]))
          nb.streams.push_back(
              {ix.engines[e],
               std::vector<model::Item>(cut->second.size(), model::Barrier{std::vector<std::string>{}, {}})});
    return model::Stmt{std::move(nb)};
  }
};

}  // namespace

model::Barrier merge(const model::Barrier& a, const model::Barrier& b) {
  if (!a.reset || !b.reset) return model::Barrier{};  // one of them resets everything
  auto r = *a.reset;
  for (const auto& s : *b.reset)
    if (std::find(r.begin(), r.end(), s) == r.end()) r.push_back(s);
  return model::Barrier{r, {}};
}

model::Program emit_impl(const model::Program& spec, const model::ProgramIndex& ix, Plan&& plan,
                         const Registers& regs) {
  model::Program impl;
  impl.kind = model::ProgramKind::Impl;
  impl.engines = spec.engines;
  impl.semaphores = plan.semaphores;
  Emitter emitter{ix, plan, regs};
  impl.body = emitter.run(spec.body);
  model::normalize(impl);
  return impl;
}

}  // namespace syncbisim::allocator
