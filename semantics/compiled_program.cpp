#include "semantics/compiled_program.h"

#include <algorithm>
#include <stdexcept>

#include "model/walk.h"

namespace syncbisim::semantics {

EvalStatus CompiledExpr::run(const std::uint64_t* regs, std::uint64_t max, std::uint64_t* val,
                             std::uint64_t& out) const {
  const std::size_t n = nodes.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto& node = nodes[i];
    switch (node.op) {
      case model::ExprOp::Const: val[i] = node.value; break;
      case model::ExprOp::Reg: val[i] = regs[node.reg]; break;
      default:
        if (!model::apply_op(node.op, val[node.lhs], val[node.rhs], val[i])) [[unlikely]]
          return EvalStatus::PastU64;
    }
    if (val[i] > max) [[unlikely]] {
      out = val[i];
      return EvalStatus::PastWidth;
    }
  }
  out = n == 0 ? 0 : val[n - 1];
  return EvalStatus::Ok;
}

void CompiledExpr::find_shape() {
  using model::ExprOp;
  shape_ = Shape::Nodes;
  if (nodes.size() == 1 && nodes[0].op == ExprOp::Const) {
    shape_ = Shape::Const;
    constant_ = nodes[0].value;
  } else if (nodes.size() == 3 && nodes[2].op == ExprOp::Add && nodes[2].lhs != nodes[2].rhs) {
    const auto& a = nodes[nodes[2].lhs];
    const auto& b = nodes[nodes[2].rhs];
    if (a.op == ExprOp::Reg && b.op == ExprOp::Const) {
      shape_ = Shape::RegPlusConst;
      reg_ = a.reg;
      constant_ = b.value;
    } else if (a.op == ExprOp::Const && b.op == ExprOp::Reg) {
      shape_ = Shape::RegPlusConst;
      reg_ = b.reg;
      constant_ = a.value;
    }
  }
}

EvalStatus CompiledExpr::eval(const std::uint64_t* regs, std::uint64_t max, std::uint64_t& out) const {
  switch (shape_) {
    case Shape::Const: out = constant_; return constant_ > max ? EvalStatus::PastWidth : EvalStatus::Ok;
    case Shape::RegPlusConst:
      // The register fits (else the execution had ended), and the sum is at least the constant:
      // one test of the sum covers both values.
      if (__builtin_add_overflow(regs[reg_], constant_, &out)) [[unlikely]]
        return EvalStatus::PastU64;
      return out > max ? EvalStatus::PastWidth : EvalStatus::Ok;
    case Shape::Nodes: break;
  }
  // Expressions are tiny (the paper's wait values use at most five operators): a buffer on the
  // stack, and a vector only for a larger one.
  constexpr std::size_t kInline = 32;
  if (nodes.size() <= kInline) {
    std::uint64_t val[kInline];
    return run(regs, max, val, out);
  }
  std::vector<std::uint64_t> big(nodes.size());
  return run(regs, max, big.data(), out);
}

namespace {

class Lowering {
 public:
  Lowering(const model::Program& p, const model::ProgramIndex& ix, const model::ProgramIndex* trips_from)
      : p_(p), ix_(ix), trips_from_(trips_from) {}

  CompiledProgram run() {
    out_.kind = p_.kind;
    out_.engines = ix_.engines;
    out_.semaphores = ix_.semaphores;
    out_.registers = ix_.registers;
    loops();
    instrs();
    out_.code.resize(ix_.engines.size());
    for (EngineId e = 0; e < ix_.engines.size(); ++e) {
      body(p_.body, e);
      out_.code[e].push_back(Op{OpKind::End, 0, 0});
    }
    deps();
    return std::move(out_);
  }

 private:
  const model::TripRule* rule_of(LoopId l) const {
    const auto& info = ix_.loops[l];
    if (info.trip) return &*info.trip;
    if (trips_from_) {
      const auto& name = info.kind == model::LoopKind::CondElse ? model::then_loop(info.cond) : info.name;
      if (auto sl = trips_from_->loop(name); sl && trips_from_->loops[*sl].trip) return &*trips_from_->loops[*sl].trip;
    }
    return nullptr;
  }

  void loops() {
    out_.loops.resize(ix_.loops.size());
    for (LoopId l = 0; l < ix_.loops.size(); ++l) {
      const auto& info = ix_.loops[l];
      auto& cl = out_.loops[l];
      cl.name = info.name;
      cl.kind = info.kind;
      cl.parent = info.parent;
      if (info.kind == model::LoopKind::CondElse) {
        cl.then_sibling = *ix_.loop(model::then_loop(info.cond));
        continue;  // its trip is 1 - (the then-branch's trip): no rule of its own
      }
      const model::TripRule* rule = rule_of(l);
      if (!rule) throw std::invalid_argument("loop '" + info.name + "' has no trip rule (none in the spec either)");
      cl.divergent = rule->divergent;
      for (const auto& e : ix_.engines) {
        const auto& c = rule->for_engine(e);
        cl.rule.push_back(c);
        cl.chosen = cl.chosen || std::holds_alternative<model::RangeTrip>(c);
        cl.indexed = cl.indexed || std::holds_alternative<model::SeqTrip>(c);
        cl.max_trip = std::max(cl.max_trip, model::choice_max(c));
      }
      if (info.kind == model::LoopKind::CondThen) cl.max_trip = 1;
    }
  }

  CompiledExpr expr(const model::Expr& e) {
    CompiledExpr ce;
    for (const auto& n : e.nodes)
      ce.nodes.push_back({n.op, n.value, n.op == model::ExprOp::Reg ? *ix_.reg(n.reg) : 0, n.lhs, n.rhs});
    ce.find_shape();
    return ce;
  }

  // Instruction ids are the spec's when lowering an impl against its spec, so that one Step
  // means the same instruction on both sides of the lock step; loops must already agree (the
  // structural correspondence guarantees the same tree in the same order).
  InstrId instr_id(const std::string& name) const {
    const auto id = trips_from_ ? trips_from_->instr(name) : ix_.instr(name);
    if (!id) throw std::invalid_argument("instruction '" + name + "' is not in the spec");
    return *id;
  }

  void instrs() {
    if (trips_from_) {
      if (trips_from_->instrs.size() != ix_.instrs.size() || trips_from_->loops.size() != ix_.loops.size())
        throw std::invalid_argument("the impl does not correspond to the spec (instruction or loop count differs)");
      for (LoopId l = 0; l < ix_.loops.size(); ++l)
        if (trips_from_->loops[l].name != ix_.loops[l].name)
          throw std::invalid_argument("the impl's loop '" + ix_.loops[l].name + "' is not where the spec has it");
    }
    out_.instrs.resize(ix_.instrs.size());
    for (const auto& info : ix_.instrs) {
      auto& ci = out_.instrs[instr_id(info.name)];
      ci.name = info.name;
      ci.engine = info.engine;
      ci.parent = info.parent;
    }
  }

  void item(const model::Item& it, EngineId e) {
    auto& code = out_.code[e];
    if (const auto* in = std::get_if<model::Instr>(&it)) {
      const InstrId id = instr_id(in->id);
      auto& ci = out_.instrs[id];
      for (const auto& w : in->waits) {
        CompiledWait cw;
        cw.sem = *ix_.semaphore(w.sem);
        if (const auto* r = std::get_if<std::string>(&w.ge)) {
          cw.reg_threshold = true;
          cw.reg = *ix_.reg(*r);
        } else {
          cw.value = std::get<std::uint64_t>(w.ge);
        }
        ci.waits.push_back(cw);
      }
      if (in->signal) {
        ci.has_signal = true;
        ci.signal_sem = *ix_.semaphore(in->signal->sem);
        ci.signal_add = in->signal->add;
      }
      code.push_back(Op{OpKind::Instr, id, 0});
    } else if (const auto* op = std::get_if<model::RegOp>(&it)) {
      out_.regops.push_back(CompiledRegOp{*ix_.reg(op->dst), expr(op->expr), op->dst + " := " + op->expr.to_string()});
      code.push_back(Op{OpKind::RegOp, static_cast<std::uint32_t>(out_.regops.size() - 1), 0});
    } else {
      const auto& bar = std::get<model::Barrier>(it);
      CompiledBarrier cb;
      cb.reset_all = !bar.reset.has_value();
      if (bar.reset)
        for (const auto& s : *bar.reset) cb.reset.push_back(*ix_.semaphore(s));
      out_.barriers.push_back(std::move(cb));
      code.push_back(Op{OpKind::Barrier, static_cast<std::uint32_t>(out_.barriers.size() - 1), 0});
    }
  }

  // One engine's code: its items in tree order, each loop's and each branch's body between a
  // LoopHead and a LoopBack (a cond is its two branch loops: docs/semantics.md "Lowering").
  void body(const std::vector<model::Stmt>& stmts, EngineId e) {
    struct Emit {
      Lowering& low;
      EngineId e;
      std::vector<std::uint32_t> heads;  // the open loops' LoopHead ops
      void stmt(const model::Stmt& s, std::size_t) {
        if (const auto* b = std::get_if<model::Block>(&s.node))
          if (const auto* stream = b->find(low.ix_.engines[e]))
            for (const auto& it : stream->items) low.item(it, e);
      }
      void open(LoopId l) {
        auto& code = low.out_.code[e];
        heads.push_back(static_cast<std::uint32_t>(code.size()));
        code.push_back(Op{OpKind::LoopHead, l, 0});
      }
      void close() {
        auto& code = low.out_.code[e];
        const auto head = heads.back();
        heads.pop_back();
        code.push_back(Op{OpKind::LoopBack, code[head].a, head});
        code[head].b = static_cast<std::uint32_t>(code.size());  // the head's exit: past the back edge
      }
      void enter_loop(const model::Loop& l) { open(*low.ix_.loop(l.id)); }
      void leave_loop(const model::Loop&) { close(); }
      void enter_branch(const model::Cond& c, bool then) {
        open(*low.ix_.loop(then ? model::then_loop(c.id) : model::else_loop(c.id)));
      }
      void leave_branch(const model::Cond&, bool) { close(); }
    } emit{*this, e, {}};
    model::walk(stmts, emit);
  }

  void deps() {
    out_.deps_of_consumer.resize(ix_.instrs.size());
    out_.deps_recorded_at.resize(ix_.loops.size());
    for (std::size_t i = 0; i < p_.deps.size(); ++i) {
      const auto& d = p_.deps[i];
      CompiledDep cd;
      cd.index = i;
      static_cast<model::DependencyShape&>(cd) = *model::shape_of(d, ix_);  // a validated program
      const auto idx = static_cast<std::uint32_t>(out_.deps.size());
      out_.deps_of_consumer[cd.consumer].push_back(idx);
      out_.deps_recorded_at[cd.S].push_back(idx);
      out_.deps.push_back(std::move(cd));
    }
  }

  const model::Program& p_;
  const model::ProgramIndex& ix_;
  const model::ProgramIndex* trips_from_;
  CompiledProgram out_;
};

}  // namespace

CompiledProgram compile(const model::Program& p, const model::ProgramIndex& ix, const model::ProgramIndex* trips_from) {
  return Lowering(p, ix, trips_from).run();
}

}  // namespace syncbisim::semantics
