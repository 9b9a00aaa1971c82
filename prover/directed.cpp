#include "prover/directed.h"

#include <algorithm>
#include <chrono>

#include "checker/mismatch_fix.h"

namespace syncbisim::prover {

namespace {

using semantics::EngineId;
using semantics::InstrId;
using semantics::LoopId;
using semantics::OpKind;
using semantics::Step;
using semantics::StepKind;
using Clock = std::chrono::steady_clock;

// The run's policy (docs/prover.md "Refutations: from a model to a concrete execution"):
// * the consumer's engine e moves whenever it can, toward the target instance;
// * every other move is on demand: when an engine cannot move, the engines it waits for (the
//   producers of its unsatisfied dependencies, the signallers of its waits that do not hold, the
//   engines not yet at its barrier) take one step each, recursively;
// * retirements the consumer's two conditions do not read (neither a producer of its
//   dependencies nor a signal of a semaphore it waits on) are taken at once, so no engine is
//   held back by what does not matter;
// * at the target: an under-synchronization holds the lagging producers one below what is owed
//   and moves everything else the consumer reads as far as it goes; an over-synchronization
//   retires the producers exactly to what is owed.
class Run {
 public:
  Run(const semantics::Lockstep& both, const DirectedRequest& r)
      : both_(both), r_(r), sp_(both.spec().program()), ip_(both.impl().program()) {
    relevant_.assign(sp_.instrs.size(), 0);
    // An overflow run retires everything at once: a semaphore is largest then.
    if (r.goal == Goal::Overflow) return;
    for (const auto d : sp_.deps_of_consumer[r.consumer]) relevant_[sp_.deps[d].producer] = 1;
    for (const auto& w : ip_.instrs[r.consumer].waits)
      for (InstrId i = 0; i < ip_.instrs.size(); ++i)
        if (ip_.instrs[i].has_signal && ip_.instrs[i].signal_sem == w.sem) relevant_[i] = 1;
  }

  DirectedResult go() {
    start_ = Clock::now();
    s_ = both_.initial();
    check();
    retire_unobserved();
    const auto engines = sp_.engine_count();
    std::vector<std::uint8_t> visiting(engines, 0);
    const auto e = r_.engine;
    if (r_.goal == Goal::Overflow && r_.watch.semaphore) return every_engine();
    while (!out_.found && !out_.overflowed) {
      if (over_budget()) return finish();
      if (at_target()) {
        target();
        return finish();
      }
      if (can_issue(e)) {
        if (passes_target()) {
          out_.why_not = "the run passed the target instance without the sides disagreeing";
          return finish();
        }
        apply(Step{StepKind::Issue, e, both_.spec().control().next_op(s_.spec.control, e).a, 0});
        continue;
      }
      if (const auto ch = choice(e)) {
        apply(*ch);
        continue;
      }
      if (finished(e)) {
        out_.why_not = "the consumer's engine finished before the target instance";
        return finish();
      }
      std::fill(visiting.begin(), visiting.end(), 0);
      if (!help(e, visiting)) {
        out_.why_not = "the run got stuck before the target instance (" + stuck_at() + ")";
        return finish();
      }
    }
    return finish();
  }

 private:
  // A semaphore's overflow: every engine issues and chooses whenever it can, e first, and every
  // retirement is taken at once. A semaphore only grows between resets, and a reset waits for
  // every engine at its barrier, so running everyone as far as they go before each release
  // reaches the largest value of each stretch between resets (issuing more only satisfies more
  // waits and dependencies); the run ends at the overflow or where no engine can move.
  DirectedResult every_engine() {
    const auto engines = sp_.engine_count();
    std::vector<std::uint8_t> visiting(engines, 0);
    while (!out_.overflowed) {
      if (over_budget()) return finish();
      bool moved = false;
      for (EngineId k = 0; k < engines && !out_.overflowed; ++k) {
        const auto h = static_cast<EngineId>((r_.engine + k) % engines);
        if (can_issue(h)) {
          apply(Step{StepKind::Issue, h, spec_op(h).a, 0});
          moved = true;
        } else if (const auto ch = choice(h)) {
          apply(*ch);
          moved = true;
        }
      }
      if (moved || out_.overflowed) continue;
      for (EngineId h = 0; h < engines && !moved; ++h) {
        std::fill(visiting.begin(), visiting.end(), 0);
        moved = !finished(h) && help(h, visiting);
      }
      if (!moved) {
        bool all_done = true;
        for (EngineId h = 0; h < engines; ++h) all_done = all_done && finished(h);
        out_.why_not = all_done ? "every engine finished with the semaphore within its width"
                                : "the run got stuck with the semaphore within its width (" + stuck_at() + ")";
        return finish();
      }
    }
    return finish();
  }

  DirectedResult finish() {
    if (done()) out_.why_not.clear();
    out_.at = where();
    return std::move(out_);
  }

  std::vector<std::pair<LoopId, std::uint32_t>> where() const {
    std::vector<std::pair<LoopId, std::uint32_t>> at;
    for (auto l = sp_.instrs[r_.consumer].parent; l != model::kTop; l = sp_.loops[l].parent)
      at.emplace(at.begin(), l, s_.spec.control.engines[r_.engine].frames[l].iter);
    return at;
  }

  bool over_budget() {
    if (out_.steps >= r_.max_steps) {
      out_.why_not = "stopped after " + std::to_string(out_.steps) + " steps (the directed run's limit)";
      return true;
    }
    if ((out_.steps & 0xfff) == 0 && r_.max_seconds > 0 &&
        std::chrono::duration<double>(Clock::now() - start_).count() > r_.max_seconds) {
      out_.why_not = "stopped after " + std::to_string(r_.max_seconds) + " s (the directed run's limit)";
      return true;
    }
    return false;
  }

  // ---- what the state offers ----
  const semantics::Op& spec_op(EngineId h) const { return both_.spec().control().next_op(s_.spec.control, h); }
  const semantics::Op& impl_op(EngineId h) const { return both_.impl().control().next_op(s_.impl.control, h); }
  bool can_issue(EngineId h) const {
    return spec_op(h).kind == OpKind::Instr && both_.spec_can_issue(s_, h) && both_.impl_can_issue(s_, h);
  }
  bool finished(EngineId h) const { return spec_op(h).kind == OpKind::End; }
  const auto& inflight(EngineId h) const { return s_.spec.control.engines[h].inflight; }

  // A trip or branch choice at a loop head both sides stand at, with the planned value.
  std::optional<Step> choice(EngineId h) const {
    const auto& op = spec_op(h);
    if (op.kind != OpKind::LoopHead || impl_op(h).kind != OpKind::LoopHead) return std::nullopt;
    Step det;
    if (both_.spec().control().deterministic_loop_step(s_.spec.control, h, det)) return std::nullopt;
    const LoopId l = op.a;
    const auto* range = std::get_if<model::RangeTrip>(&sp_.loops[l].rule[h]);
    if (!range) return std::nullopt;
    std::uint32_t v = range->min;
    if (auto it = r_.trips.find(l); it != r_.trips.end()) v = std::clamp(it->second, range->min, range->max);
    return Step{StepKind::Choose, h, v, l};
  }

  std::uint64_t retired(InstrId i) const { return s_.spec.retired[i]; }

  // May h retire its head now? Heads the consumer does not read always; the others on demand
  // (or eagerly at an under-synchronization's target), never past a cap.
  bool may_retire(EngineId h, bool demanded) const {
    if (inflight(h).empty()) return false;
    const auto i = inflight(h).front().instr;
    if (auto it = cap_.find(i); it != cap_.end() && retired(i) >= it->second) return false;
    return !relevant_[i] || demanded;
  }

  // Waiting to drain is one way the impl holds an engine at a barrier: a run after that keeps
  // the consumer's engine's own instructions in flight until something needs them retired.
  bool keeps_inflight(EngineId h) const { return r_.goal == Goal::AtBarrier && h == r_.engine; }

  // ---- stepping ----
  void apply_one(const Step& st) {
    both_.apply(s_, st);
    if (!out_.trace_cut && out_.trace.size() < r_.max_trace_steps) {
      out_.trace.push_back(st);
    } else if (!out_.trace_cut) {  // the witness would outgrow its limit: the run goes on without it
      out_.trace_cut = true;
      std::vector<Step>().swap(out_.trace);
    }
    if (st.kind == StepKind::Choose && sp_.loops[st.aux].kind == model::LoopKind::Loop) {
      auto& c = out_.chosen[st.aux];
      c = std::max(c, st.arg);
    }
    ++out_.steps;
    check();
  }

  void apply(const Step& st) {
    apply_one(st);
    if (!done()) retire_unobserved();
  }

  bool done() const { return out_.found || out_.overflowed; }

  void retire_unobserved() {
    for (bool any = true; any && !done();) {
      any = false;
      for (EngineId h = 0; h < sp_.engine_count() && !done(); ++h)
        while (!done() && !inflight(h).empty() && !relevant_[inflight(h).front().instr] && !keeps_inflight(h)) {
          apply_one(Step{StepKind::Retire, h, inflight(h).front().instr, 0});
          any = true;
        }
    }
  }

  // One step on h that brings it nearer to retiring more; false if it cannot move and nothing
  // it waits for can either.
  bool advance(EngineId h, bool demanded, std::vector<std::uint8_t>& visiting) {
    if (may_retire(h, demanded)) {
      apply(Step{StepKind::Retire, h, inflight(h).front().instr, 0});
      return true;
    }
    if (h != r_.engine || !at_target()) {
      if (can_issue(h)) {
        if (h == r_.engine && passes_target()) return false;
        apply(Step{StepKind::Issue, h, spec_op(h).a, 0});
        return true;
      }
      if (const auto ch = choice(h)) {
        apply(*ch);
        return true;
      }
    }
    return help(h, visiting);
  }

  // Moves something engine g waits for; false if nothing can move.
  bool help(EngineId g, std::vector<std::uint8_t>& visiting) {
    if (visiting[g]) return false;
    visiting[g] = 1;
    std::vector<EngineId> wanted;
    auto want = [&](EngineId h) {
      if (std::find(wanted.begin(), wanted.end(), h) == wanted.end()) wanted.push_back(h);
    };
    const auto& sop = spec_op(g);
    const auto& iop = impl_op(g);
    if (iop.kind == OpKind::Barrier) {
      if (r_.goal == Goal::AtBarrier && g == r_.engine) {
        // The consumer's producers first, so that the spec may issue it while the impl still
        // waits (for this engine to drain, or for the others).
        for (const auto d : sp_.deps_of_consumer[r_.consumer]) {
          const auto h = sp_.instrs[sp_.deps[d].producer].engine;
          if (!s_.impl.arrived[h] && h != g) want(h);
        }
      }
      if (!inflight(g).empty()) {
        want(g);  // drain
      } else {
        // Arrived: the engines not yet at a barrier; the consumer's producers first, so that the
        // spec may issue the consumer while the impl still waits.
        for (EngineId h = 0; h < sp_.engine_count(); ++h)
          if (!s_.impl.arrived[h] && !inflight(h).empty() && relevant_[inflight(h).front().instr]) want(h);
        for (EngineId h = 0; h < sp_.engine_count(); ++h)
          if (!s_.impl.arrived[h]) want(h);
      }
    } else if (sop.kind == OpKind::Instr) {
      for (const auto& c : both_.spec().explain(s_.spec, g))
        if (!c.satisfied()) want(sp_.instrs[sp_.deps[c.dep].producer].engine);
      const auto waits = both_.impl().explain(s_.impl, g);
      for (const auto& w : waits)
        if (!w.holds())
          for (InstrId i = 0; i < ip_.instrs.size(); ++i)
            if (ip_.instrs[i].has_signal && ip_.instrs[i].signal_sem == w.sem) want(ip_.instrs[i].engine);
    }
    if (std::find(wanted.begin(), wanted.end(), g) == wanted.end() && !inflight(g).empty()) wanted.push_back(g);
    for (const auto h : wanted)
      if (advance(h, true, visiting)) return true;
    return false;
  }

  // ---- the consumer ----
  bool at_target() const {
    // A barrier's over-synchronization shows before an instance, not at it: such a run goes on.
    if (r_.instance.empty() || r_.goal == Goal::AtBarrier) return false;
    const auto e = r_.engine;
    if (spec_op(e).kind != OpKind::Instr || spec_op(e).a != r_.consumer || impl_op(e).kind == OpKind::Barrier)
      return false;
    for (const auto& [l, it] : r_.instance)
      if (s_.spec.control.engines[e].frames[l].iter != it) return false;
    return true;
  }

  // Issuing the consumer now would leave the target behind (this instance is at or past it).
  bool passes_target() const {
    if (r_.instance.empty() || r_.goal == Goal::AtBarrier) return false;
    const auto e = r_.engine;
    if (spec_op(e).kind != OpKind::Instr || spec_op(e).a != r_.consumer) return false;
    for (const auto& [l, it] : r_.instance) {
      const auto cur = s_.spec.control.engines[e].frames[l].iter;
      if (cur != it) return cur > it;
    }
    return true;
  }

  void check() {
    const auto e = r_.engine;
    if (r_.goal == Goal::Overflow) {
      const auto& w = r_.watch;
      const auto v = w.semaphore ? s_.impl.sems[w.id] : s_.impl.regs[e][w.id];
      out_.watched = v;
      if (v > w.max) out_.overflowed = true;
      // A register operation whose value passed 2^64 - 1 leaves its register as it was; the
      // engine stops before it (docs/semantics.md "Widths").
      if (!w.semaphore && s_.impl.overflow[e] == static_cast<std::uint8_t>(semantics::OverflowKind::PastU64) &&
          both_.impl().control().next_op(s_.impl.control, e).kind == OpKind::RegOp &&
          ip_.regops[both_.impl().control().next_op(s_.impl.control, e).a].dst == w.id)
        out_.overflowed = true;
      return;
    }
    const auto& sop = spec_op(e);
    const auto& iop = impl_op(e);
    const bool at_c = sop.kind == OpKind::Instr && sop.a == r_.consumer;
    if (iop.kind == OpKind::Barrier) {
      held_check();
      return;
    }
    if (!at_c || both_.spec_can_issue(s_, e) == both_.impl_can_issue(s_, e)) return;
    for (auto& m : both_.mismatches(s_))
      if (m.engine == e && m.instr == r_.consumer) {
        record(std::move(m));
        return;
      }
  }

  // The impl holds e at a barrier: would the spec, taking e's loop control with the planned
  // choices, come to the consumer and may it issue it there (docs/semantics.md, the lock step
  // compares the spec's next instruction past loop control then)?
  void held_check() {
    const auto e = r_.engine;
    auto spec = s_.spec;
    const auto& control = both_.spec().control();
    std::vector<Step> steps;
    for (int budget = 0; budget < 10000; ++budget) {
      const auto& op = control.next_op(spec.control, e);
      if (op.kind == OpKind::Instr) {
        if (op.a != r_.consumer || !both_.spec().can_issue(spec, e)) return;
        semantics::Mismatch m;
        m.engine = e;
        m.instr = r_.consumer;
        m.spec_can = true;
        m.spec_checks = both_.spec().explain(spec, e);
        m.impl_blocked_at_barrier = true;
        record(std::move(m));
        return;
      }
      if (op.kind != OpKind::LoopHead && op.kind != OpKind::LoopBack) return;
      Step st;
      if (!control.deterministic_loop_step(spec.control, e, st)) {
        const auto* range = std::get_if<model::RangeTrip>(&sp_.loops[op.a].rule[e]);
        if (!range) return;
        std::uint32_t v = range->min;
        if (auto it = r_.trips.find(op.a); it != r_.trips.end()) v = std::clamp(it->second, range->min, range->max);
        st = Step{StepKind::Choose, e, v, op.a};
      }
      both_.spec().apply(spec, st);
    }
  }

  void record(semantics::Mismatch m) {
    const bool under = m.impl_can && !m.spec_can;
    if (under == (r_.goal == Goal::UnderSync)) {
      out_.found = std::move(m);
      return;
    }
    if (!out_.other) {
      out_.other = std::move(m);
      out_.other_trace = out_.trace;
      out_.other_trace_cut = out_.trace_cut;
      out_.other_steps = out_.steps;
      out_.other_chosen = out_.chosen;
      out_.other_at = where();
    }
  }

  std::string stuck_at() const {
    std::string out;
    for (EngineId h = 0; h < sp_.engine_count(); ++h) {
      const auto& op = spec_op(h);
      if (op.kind == OpKind::Instr)
        out += (out.empty() ? "" : ", ") + sp_.engines[h] + " before " + sp_.instrs[op.a].name;
    }
    return out.empty() ? "no engine before an instruction" : out;
  }

  // At the target instance: leave the state the model describes.
  void target() {
    const auto e = r_.engine;
    std::vector<std::uint8_t> visiting(sp_.engine_count(), 0);
    if (r_.goal == Goal::UnderSync) {
      // Hold each lagging producer one below what the consumer is owed now (its history is
      // fixed while it stands here), then let everything the consumer reads run as far as it can.
      for (const auto& c : both_.spec().explain(s_.spec, e)) {
        const auto p = sp_.deps[c.dep].producer;
        if (std::find(r_.lagging.begin(), r_.lagging.end(), p) == r_.lagging.end()) continue;
        if (c.underflow || c.owed == 0) continue;
        if (retired(p) >= c.owed) {
          out_.why_not = "at the target, " + sp_.instrs[p].name + " had retired " + std::to_string(retired(p)) +
                         " times already, what the consumer is owed";
          return;
        }
        cap_[p] = c.owed - 1;
      }
      std::vector<std::uint8_t> reads(sp_.engine_count(), 0);
      for (InstrId i = 0; i < sp_.instrs.size(); ++i)
        if (relevant_[i]) reads[sp_.instrs[i].engine] = 1;
      for (bool moved = true; moved && !out_.found;) {
        if (over_budget()) return;
        moved = false;
        for (EngineId h = 0; h < sp_.engine_count() && !out_.found; ++h) {
          if (!reads[h]) continue;
          std::fill(visiting.begin(), visiting.end(), 0);
          if (h == e) visiting[e] = 1;  // the consumer's engine stays where it is
          if (advance(h, true, visiting)) moved = true;
        }
      }
      if (!out_.found) out_.why_not = "at the target the impl does not issue the consumer either; " + at_consumer();
      return;
    }
    // Over-synchronization: retire the producers until the spec may issue the consumer.
    while (!out_.found && !both_.spec_can_issue(s_, e)) {
      if (over_budget()) return;
      bool moved = false;
      for (const auto& c : both_.spec().explain(s_.spec, e)) {
        if (c.satisfied()) continue;
        std::fill(visiting.begin(), visiting.end(), 0);
        visiting[e] = 1;
        if (advance(sp_.instrs[sp_.deps[c.dep].producer].engine, true, visiting)) {
          moved = true;
          break;
        }
      }
      if (!moved) {
        out_.why_not = "at the target the producers cannot retire what is owed (" + stuck_at() + ")";
        return;
      }
    }
    if (!out_.found) out_.why_not = "at the target the impl issues the consumer as soon as the spec does; " + at_consumer();
  }

  // The consumer's dependencies and waits where the run stands (checker::explain_consumer): what
  // a person needs to see why the model's violation did not happen (issue 42).
  std::string at_consumer() const {
    const auto e = r_.engine;
    const auto& regs = s_.impl.regs[e];
    const std::vector<std::uint64_t> values(regs.begin(), regs.end());
    return checker::explain_consumer(sp_, ip_, e, r_.consumer, both_.spec().explain(s_.spec, e),
                                     both_.impl().explain(s_.impl, e), values.data());
  }

  const semantics::Lockstep& both_;
  const DirectedRequest& r_;
  const semantics::CompiledProgram& sp_;
  const semantics::CompiledProgram& ip_;
  semantics::LockstepState s_;
  DirectedResult out_;
  std::vector<std::uint8_t> relevant_;
  std::map<InstrId, std::uint64_t> cap_;
  Clock::time_point start_;
};

}  // namespace

DirectedResult directed_run(const semantics::Lockstep& both, const DirectedRequest& request) {
  try {
    return Run(both, request).go();
  } catch (const semantics::InternalStepLimit& e) {  // a step that would not end: nothing reproduced
    DirectedResult r;
    r.why_not = std::string("the directed run stopped at the limit ") + e.what();
    return r;
  }
}

}  // namespace syncbisim::prover
