#include "semantics/lockstep.h"

#include <algorithm>

namespace syncbisim::semantics {

namespace {
bool is_loop_op(OpKind k) { return k == OpKind::LoopHead || k == OpKind::LoopBack; }
}  // namespace

LockstepState Lockstep::initial(const InternalObserver& observe) const {
  LockstepState s{spec_->initial(), impl_->initial()};
  settle(s, observe);
  return s;
}

InternalStepLimit::InternalStepLimit(const std::string& engine) : std::runtime_error(name(engine)) {}

std::string InternalStepLimit::name(const std::string& engine) {
  return "internal-steps " + std::to_string(Lockstep::kMaxInternalSteps) + " (" +
         (engine.empty() ? std::string("an engine") : "engine " + engine) +
         " within one step: a loop without its instructions; --max-trip caps the trips)";
}

namespace {
// Out of line and cold, so that the settling loop stays as tight as without the limit.
[[noreturn, gnu::cold, gnu::noinline]] void throw_internal_step_limit(const std::string& engine) {
  throw InternalStepLimit(engine);
}
}  // namespace

bool Lockstep::settle_engine(LockstepState& s, EngineId e, const InternalObserver& observe) const {
  if (s.impl.overflow[e]) [[unlikely]]
    return false;  // the execution ended (ImplSystem::overflowed)
  bool moved = false;
  for (std::uint64_t n = 0;; ++n) {
    if (n == kMaxInternalSteps) [[unlikely]]
      throw_internal_step_limit(impl_->program().engines[e]);
    const Op& iop = impl_->control().next_op(s.impl.control, e);
    if (iop.kind == OpKind::RegOp) {
      const Step st{StepKind::RegOp, e, iop.a, 0};
      impl_->apply(s.impl, st);
      if (observe) observe(st, s);
      moved = true;
      if (s.impl.overflow[e]) [[unlikely]]
        return true;  // it stays before the operation
      continue;
    }
    if (iop.kind == OpKind::Barrier) {
      if (!s.impl.arrived[e] && s.impl.control.engines[e].inflight.empty()) {
        const Step st{StepKind::BarrierArrive, e, iop.a, 0};
        impl_->apply(s.impl, st);
        if (observe) observe(st, s);
        moved = true;
      }
      return moved;  // released by settle() once every engine has arrived
    }
    const Op& sop = spec_->control().next_op(s.spec.control, e);
    if (!is_loop_op(iop.kind) || !is_loop_op(sop.kind)) return moved;
    // Both sides stand at the same loop guard or back edge: take the step unless it is a choice.
    Step step;
    if (!spec_->control().deterministic_loop_step(s.spec.control, e, step)) return moved;
    spec_->apply(s.spec, step);
    impl_->apply(s.impl, step);
    if (observe) observe(step, s);
    moved = true;
  }
}

void Lockstep::settle(LockstepState& s, const InternalObserver& observe) const {
  EngineSet touched;
  settle(s, observe, touched);
}

void Lockstep::settle(LockstepState& s, const InternalObserver& observe, EngineSet& touched) const {
  // One round over the engines settles them all: an engine's internal steps read its own
  // control and registers, and the pending uniform choices, which internal steps never extend
  // (a choice is a visible step; a trip read from `pending` leaves the others' readings as they
  // were). Only a barrier release moves engines anew, and then the round repeats.
  // The property "settled states have no internal step" in tests/checker/reduction_test.cpp
  // holds this argument to account.
  const auto engines = spec_->program().engine_count();
  for (;;) {
    for (EngineId e = 0; e < engines; ++e)
      if (settle_engine(s, e, observe)) touched.add(e);
    if (!impl_->barrier_ready(s.impl)) return;
    const Step st{StepKind::BarrierRelease, 0, 0, 0};
    impl_->apply(s.impl, st);
    if (observe) observe(st, s);
    touched = EngineSet::all();
  }
}

bool Lockstep::settled(const LockstepState& s) const {
  auto copy = s;
  for (EngineId e = 0; e < spec_->program().engine_count(); ++e)
    if (settle_engine(copy, e, {})) return false;
  return !impl_->barrier_ready(s.impl);
}

bool Lockstep::impl_can_issue(const LockstepState& s, EngineId e) const {
  // The impl may be held at a barrier (or anything else) before the instruction: it cannot issue.
  return impl_->can_issue(s.impl, e);
}

void Lockstep::visible(const LockstepState& s, Steps& out, std::vector<Mismatch>* found) const {
  // An overflow ends the execution: no step, nothing to compare (docs/semantics.md "Widths").
  if (impl_->overflowed(s.impl)) [[unlikely]]
    return;
  const auto engines = spec_->program().engine_count();
  for (EngineId e = 0; e < engines; ++e) {
    const Op& sop = spec_->control().next_op(s.spec.control, e);
    const bool sc = sop.kind == OpKind::Instr && spec_->can_issue(s.spec, e);
    const bool ic = sop.kind == OpKind::Instr && impl_can_issue(s, e);
    if (sc && ic) out.push_back(Step{StepKind::Issue, e, sop.a, 0});
    if (found) mismatch_at(s, e, sop, sc, ic, *found);
    // Retire (and, without commit fusion, the commits, which both sides share).
    spec_->control().enabled(s.spec.control, e, out, /*loop_steps=*/false);
    const Op& iop = impl_->control().next_op(s.impl.control, e);
    if (sop.kind == OpKind::LoopHead && iop.kind == OpKind::LoopHead) {
      // Settled: what is left at a shared loop head is a choice.
      const auto before = out.runs().size();
      spec_->control().loop_steps(s.spec.control, e, out);
      out.erase_if_from(before, [](const Step& st) { return st.kind != StepKind::Choose; });
    }
  }
}

void Lockstep::apply(LockstepState& s, const Step& st, const InternalObserver& observe) const {
  spec_->apply(s.spec, st);
  impl_->apply(s.impl, st);
  settle(s, observe);
}

void Lockstep::apply_local(LockstepState& s, const Step& st) const {
  spec_->apply(s.spec, st);
  impl_->apply(s.impl, st);
  settle_engine(s, st.engine, {});
}

EngineSet Lockstep::apply_touching(LockstepState& s, const Step& st) const {
  // The other engines were settled before the step, and an issue, a retirement or a commit on
  // this engine gives them no internal step: only a choice (a pending trip another engine waits
  // for) or a barrier release (which moves everyone) does. So this engine settles alone, then,
  // after a choice, every engine once (settle() argues why one round is enough), and a ready
  // barrier is left to settle().
  apply_local(s, st);
  EngineSet touched = EngineSet::of(st.engine);
  if (st.kind == StepKind::Choose)
    for (EngineId e = 0; e < spec_->program().engine_count(); ++e)
      if (settle_engine(s, e, {})) touched.add(e);
  if (barrier_ready(s)) settle(s, {}, touched);
  return touched;
}

std::optional<Mismatch> Lockstep::ahead_of_barrier(const LockstepState& s, EngineId e) const {
  // The impl holds engine e at a barrier; the spec's next item may lie past loop control (the
  // next iteration, the code after the loop). Walk the spec's control steps of e alone, every
  // choice included, to the instructions it could issue next.
  std::vector<SpecState> todo{s.spec};
  Steps steps;
  // No state is walked twice unless reached twice, so once more states were pushed than the
  // limit lets be walked, the limit will be reached: a fan-out (a range of 2^32 trips) is pushed
  // only that far, never whole.
  std::size_t pushed = 1;
  for (std::size_t walked = 0; !todo.empty(); ++walked) {
    if (walked == kAheadStates) {  // a limit: say so, never read it as "the spec cannot issue"
      Mismatch m;
      m.engine = e;
      m.impl_blocked_at_barrier = true;
      m.undecided = true;
      return m;
    }
    SpecState cur = std::move(todo.back());
    todo.pop_back();
    const Op& op = spec_->control().next_op(cur.control, e);
    if (op.kind == OpKind::Instr) {
      if (!spec_->can_issue(cur, e)) continue;
      Mismatch m;
      m.engine = e;
      m.instr = op.a;
      m.spec_can = true;
      m.spec_checks = spec_->explain(cur, e);
      m.impl_blocked_at_barrier = true;
      return m;
    }
    steps.clear();
    spec_->control().loop_steps(cur.control, e, steps);
    for (const Step st : steps) {
      if (pushed > kAheadStates) break;
      SpecState next = cur;
      spec_->apply(next, st);
      todo.push_back(std::move(next));
      ++pushed;
    }
  }
  return std::nullopt;
}

void Lockstep::mismatch_at(const LockstepState& s, EngineId e, const Op& sop, bool sc, bool ic,
                           std::vector<Mismatch>& out) const {
  if (sop.kind != OpKind::Instr) {
    if (impl_->control().next_op(s.impl.control, e).kind == OpKind::Barrier)
      if (auto m = ahead_of_barrier(s, e)) out.push_back(std::move(*m));
    return;
  }
  if (sc == ic) return;
  Mismatch m;
  m.engine = e;
  m.instr = sop.a;
  m.spec_can = sc;
  m.impl_can = ic;
  m.spec_checks = spec_->explain(s.spec, e);
  m.impl_checks = impl_->explain(s.impl, e);
  m.impl_blocked_at_barrier = impl_->control().next_op(s.impl.control, e).kind == OpKind::Barrier;
  out.push_back(std::move(m));
}

std::vector<Mismatch> Lockstep::mismatches(const LockstepState& s) const {
  std::vector<Mismatch> out;
  if (impl_->overflowed(s.impl)) return out;
  const auto engines = spec_->program().engine_count();
  for (EngineId e = 0; e < engines; ++e) {
    const Op& sop = spec_->control().next_op(s.spec.control, e);
    const bool instr = sop.kind == OpKind::Instr;
    mismatch_at(s, e, sop, instr && spec_->can_issue(s.spec, e), instr && impl_can_issue(s, e), out);
  }
  return out;
}

}  // namespace syncbisim::semantics
