#include "semantics/impl_system.h"

namespace syncbisim::semantics {

std::uint64_t ImplState::hash() const {
  Hasher h;
  hash_into(h, control);
  for (const auto& r : regs) h.add_run(r.data(), r.size());
  for (auto v : sems) h.add(v);
  for (auto a : arrived) h.add(a);
  for (auto o : overflow) h.add(o);
  return h.h;
}

const char* to_string(OverflowKind k) {
  switch (k) {
    case OverflowKind::None: return "none";
    case OverflowKind::Register: return "register";
    case OverflowKind::PastU64: return "past-u64";
    case OverflowKind::Semaphore: return "semaphore";
  }
  return "?";
}

ImplSystem::ImplSystem(const CompiledProgram& p, Options o)
    : control_(p, o),
      widths_(o.widths),
      register_max_(o.widths.register_max()),
      semaphore_max_(o.widths.semaphore_max()) {}

std::vector<Overflow> ImplSystem::overflows(const ImplState& s) const {
  const auto& p = program();
  std::vector<Overflow> out;
  for (EngineId e = 0; e < s.overflow.size(); ++e) {
    const auto kind = static_cast<OverflowKind>(s.overflow[e]);
    if (kind == OverflowKind::None) continue;
    Overflow o;
    o.engine = e;
    o.kind = kind;
    if (kind == OverflowKind::Semaphore) {
      // The signal of the retirement that overflowed: the one semaphore past the width (a state
      // with an overflow has no step, so no other signal came after it).
      for (SemId m = 0; m < s.sems.size(); ++m)
        if (s.sems[m] > semaphore_max_) {
          o.sem = m;
          o.value = s.sems[m];
        }
      o.max = semaphore_max_;
      o.bits = widths_.semaphore_bits;
    } else {
      o.regop = control_.next_op(s.control, e).a;  // the engine stands before the operation
      if (kind == OverflowKind::Register) {
        o.value = s.regs[e][p.regops[o.regop].dst];
        o.max = register_max_;
        o.bits = widths_.register_bits;
      }
    }
    out.push_back(o);
  }
  return out;
}

ImplState ImplSystem::initial() const {
  const auto& p = program();
  ImplState s;
  s.control = control_.initial();
  s.regs.assign(p.engine_count(), SmallVec<std::uint64_t, 16>(p.registers.size(), 0));
  s.sems.assign(p.semaphores.size(), 0);
  s.arrived.assign(p.engine_count(), 0);
  s.overflow.assign(p.engine_count(), 0);
  return s;
}

std::vector<WaitCheck> ImplSystem::explain(const ImplState& s, EngineId e) const {
  std::vector<WaitCheck> out;
  const Op& op = control_.next_op(s.control, e);
  if (op.kind != OpKind::Instr) return out;
  for (const auto& w : program().instrs[op.a].waits)
    out.push_back(WaitCheck{w.sem, s.sems[w.sem], w.reg_threshold ? s.regs[e][w.reg] : w.value});
  return out;
}

bool ImplSystem::can_issue(const ImplState& s, EngineId e) const {
  const Op& op = control_.next_op(s.control, e);
  if (op.kind != OpKind::Instr) return false;
  for (const auto& w : program().instrs[op.a].waits)
    if (s.sems[w.sem] < (w.reg_threshold ? s.regs[e][w.reg] : w.value)) return false;
  return true;
}

bool ImplSystem::barrier_ready(const ImplState& s) const {
  for (auto a : s.arrived)
    if (!a) return false;
  return true;
}

void ImplSystem::enabled(const ImplState& s, EngineId e, Steps& out) const {
  if (s.overflow[e]) return;  // the execution ended (overflowed())
  const Op& op = control_.next_op(s.control, e);
  if (op.kind == OpKind::Instr && can_issue(s, e)) out.push_back(Step{StepKind::Issue, e, op.a, 0});
  if (op.kind == OpKind::RegOp) out.push_back(Step{StepKind::RegOp, e, op.a, 0});
  // A barrier is arrived at only with an empty in-flight list (docs/semantics.md §4).
  if (op.kind == OpKind::Barrier && !s.arrived[e] && s.control.engines[e].inflight.empty())
    out.push_back(Step{StepKind::BarrierArrive, e, op.a, 0});
  control_.enabled(s.control, e, out);
}

void ImplSystem::enabled(const ImplState& s, Steps& out) const {
  if (overflowed(s)) return;
  for (EngineId e = 0; e < program().engine_count(); ++e) enabled(s, e, out);
  if (barrier_ready(s)) out.push_back(Step{StepKind::BarrierRelease, 0, 0, 0});
}

void ImplSystem::apply(ImplState& s, const Step& st) const {
  const auto& p = program();
  auto& ec = s.control.engines[st.engine];
  switch (st.kind) {
    case StepKind::Issue: control_.issue(s.control, st.engine, st.arg); return;
    case StepKind::Retire: {
      const auto& in = p.instrs[st.arg];
      control_.apply(s.control, st);
      if (in.has_signal) {
        // Checked against the width (docs/semantics.md "Widths"); the sum cannot pass 2^64 - 1
        // (a semaphore holds at most 2^63 - 1 before and a signal adds less than 2^32), but it
        // is checked all the same: nothing wraps.
        auto& sem = s.sems[in.signal_sem];
        std::uint64_t v = 0;
        const bool wrapped = __builtin_add_overflow(sem, std::uint64_t{in.signal_add}, &v);
        sem = wrapped ? UINT64_MAX : v;
        if (wrapped || v > semaphore_max_) [[unlikely]]
          s.overflow[st.engine] = static_cast<std::uint8_t>(OverflowKind::Semaphore);
      }
      return;
    }
    case StepKind::RegOp: {
      // Checked evaluation, then the width (docs/semantics.md "Widths"): an engine that
      // overflows stays before the operation, and the state ends the execution.
      const auto& op = p.regops[st.arg];
      auto& regs = s.regs[st.engine];
      std::uint64_t v = 0;
      const auto status = op.expr.eval(regs.data(), register_max_, v);
      if (status == EvalStatus::Ok) [[likely]] {
        regs[op.dst] = v;
        ++ec.pc;
        return;
      }
      if (status == EvalStatus::PastWidth) {
        regs[op.dst] = v;  // the first value past the width, for the report
        s.overflow[st.engine] = static_cast<std::uint8_t>(OverflowKind::Register);
      } else {
        s.overflow[st.engine] = static_cast<std::uint8_t>(OverflowKind::PastU64);
      }
      return;
    }
    case StepKind::BarrierArrive: s.arrived[st.engine] = 1; return;
    case StepKind::BarrierRelease: {
      // Every engine is at its n-th barrier; the semaphores reset are the union of what the
      // engines' barriers list (all of them if any barrier lists none): docs/semantics.md.
      std::vector<std::uint8_t> reset(s.sems.size(), 0);
      for (EngineId e = 0; e < p.engine_count(); ++e) {
        const auto& bar = p.barriers[control_.next_op(s.control, e).a];
        if (bar.reset_all) std::fill(reset.begin(), reset.end(), 1);
        for (auto sem : bar.reset) reset[sem] = 1;
      }
      for (std::size_t i = 0; i < s.sems.size(); ++i)
        if (reset[i]) s.sems[i] = 0;
      for (EngineId e = 0; e < p.engine_count(); ++e) {
        s.arrived[e] = 0;
        ++s.control.engines[e].pc;
      }
      return;
    }
    default: control_.apply(s.control, st);
  }
}

bool ImplSystem::all_finished(const ImplState& s) const {
  for (EngineId e = 0; e < program().engine_count(); ++e)
    if (!control_.finished(s.control, e)) return false;
  return true;
}

}  // namespace syncbisim::semantics
