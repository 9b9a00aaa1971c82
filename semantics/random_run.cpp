#include "semantics/random_run.h"

#include <random>

namespace syncbisim::semantics {

const char* to_string(RunOutcome o) {
  switch (o) {
    case RunOutcome::Finished: return "finished";
    case RunOutcome::Deadlock: return "deadlock";
    case RunOutcome::Mismatch: return "mismatch";
    case RunOutcome::StepLimit: return "step-limit";
    case RunOutcome::Overflow: return "overflow";
  }
  return "?";
}

namespace {

// One of n steps (n may pass 2^32: a range trip's choices, never held one by one).
std::uint64_t pick(std::mt19937_64& rng, std::uint64_t n) {
  return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng);
}

std::string wait_detail(const CompiledProgram& p, const std::vector<WaitCheck>& waits) {
  std::string out;
  for (const auto& w : waits) {
    if (!out.empty()) out += ", ";
    out += p.semaphores[w.sem] + "=" + std::to_string(w.value) + ">=" + std::to_string(w.threshold);
  }
  return out;
}

std::string dep_detail(const std::vector<DependencyCheck>& checks) {
  std::string out;
  for (const auto& c : checks) {
    if (!out.empty()) out += ", ";
    out += c.underflow ? std::string("no wait") : "R=" + std::to_string(c.retired) + ">=" + std::to_string(c.owed);
  }
  return out;
}

// A run with no step left: finished, or a deadlock with the engines that `control` (in state `s`)
// does not see finished.
RunResult& no_step_left(RunResult& r, bool finished, const Control& control, const ControlState& s) {
  r.outcome = finished ? RunOutcome::Finished : RunOutcome::Deadlock;
  if (!finished)
    for (EngineId e = 0; e < control.program().engine_count(); ++e)
      if (!control.finished(s, e)) r.stuck.push_back(e);
  return r;
}

}  // namespace

std::string iteration_detail(const CompiledProgram& p, const ControlState& s, const Step& st) {
  const LoopId l = st.kind == StepKind::Choose ? st.aux : st.arg;
  const auto& f = s.engines[st.engine].frames[l];
  if (f.iter == 0) return p.loops[l].name + " skipped";
  return p.loops[l].name + " #" + std::to_string(f.iter);
}

RunResult run_spec(const SpecSystem& spec, std::uint64_t seed, std::size_t max_steps) {
  std::mt19937_64 rng(seed);
  RunResult r;
  SpecState s = spec.initial();
  Steps steps;
  for (std::size_t n = 0;; ++n) {
    steps.clear();
    spec.enabled(s, steps);
    if (steps.empty()) return no_step_left(r, spec.all_finished(s), spec.control(), s.control);
    if (n >= max_steps) {
      r.outcome = RunOutcome::StepLimit;
      return r;
    }
    const Step st = steps[pick(rng, steps.size())];
    RunEvent ev{st, is_visible(st.kind), {}};
    if (st.kind == StepKind::Issue) ev.detail = dep_detail(spec.explain(s, st.engine));
    spec.apply(s, st);
    if (st.kind == StepKind::LoopEntry || st.kind == StepKind::Choose)
      ev.detail = iteration_detail(spec.program(), s.control, st);
    r.events.push_back(std::move(ev));
  }
}

namespace {

// Records a lock-step execution as events, internal steps included, with the numbers shown.
class LockstepRecorder {
 public:
  LockstepRecorder(const Lockstep& both, std::vector<RunEvent>& events) : both_(both), events_(events) {
    observe_ = [this](const Step& st, const LockstepState& now) {
      const auto& prog = both_.impl().program();
      RunEvent ev{st, false, {}};
      if (st.kind == StepKind::LoopEntry) ev.detail = iteration_detail(prog, now.impl.control, st);
      if (st.kind == StepKind::RegOp) {
        const auto& op = prog.regops[st.arg];
        const auto why = static_cast<OverflowKind>(now.impl.overflow[st.engine]);
        if (why == OverflowKind::PastU64) ev.detail = "past 2^64-1: overflow";
        else if (why == OverflowKind::Register)
          ev.detail = std::to_string(now.impl.regs[st.engine][op.dst]) + " past the width: overflow";
        else ev.detail = prog.registers[op.dst] + "=" + std::to_string(now.impl.regs[st.engine][op.dst]);
      }
      events_.push_back(std::move(ev));
    };
  }

  LockstepState initial() const { return both_.initial(observe_); }

  void apply(LockstepState& s, const Step& st) const {
    RunEvent ev{st, true, {}};
    const auto& prog = both_.impl().program();
    if (st.kind == StepKind::Issue) {
      const auto deps = dep_detail(both_.spec().explain(s.spec, st.engine));
      const auto waits = wait_detail(prog, both_.impl().explain(s.impl, st.engine));
      if (!deps.empty() || !waits.empty())
        ev.detail = "spec " + (deps.empty() ? "-" : deps) + " | impl " + (waits.empty() ? "-" : waits);
    }
    if (st.kind == StepKind::Commit) ev.visible = false;
    events_.push_back(std::move(ev));
    const std::size_t at = events_.size() - 1;
    both_.apply(s, st, observe_);
    // The choice's own event (the internal steps it set off follow it, and keep their values:
    // clearing back() blanked a register operation's value, issue 42).
    if (st.kind == StepKind::Choose) events_[at].detail.clear();
    if (st.kind == StepKind::Retire &&
        s.impl.overflow[st.engine] == static_cast<std::uint8_t>(OverflowKind::Semaphore)) {
      const auto sem = prog.instrs[st.arg].signal_sem;
      events_[at].detail = prog.semaphores[sem] + "=" + std::to_string(s.impl.sems[sem]) + ": overflow";
    }
  }

 private:
  const Lockstep& both_;
  std::vector<RunEvent>& events_;
  InternalObserver observe_;
};

// The run, into `r` as it goes: what it found is kept when a step ends it by throwing.
void run_into(const Lockstep& both, std::uint64_t seed, std::size_t max_steps, const std::vector<Step>& prefix,
              RunResult& r) {
  // Every internal step is an event too, up to 2^20 of them in one step: the events are capped,
  // so that the run's memory stays bounded (limit named, exit 3 as for max_steps).
  constexpr std::size_t kMaxEvents = std::size_t{1} << 22;
  std::mt19937_64 rng(seed);
  const LockstepRecorder rec(both, r.events);
  LockstepState s = rec.initial();
  for (const auto& st : prefix) rec.apply(s, st);
  Steps steps;
  for (std::size_t n = 0;; ++n) {
    if (both.impl().overflowed(s.impl)) {  // the execution ends (docs/semantics.md "Widths")
      r.outcome = RunOutcome::Overflow;
      r.overflows = both.impl().overflows(s.impl);
      return;
    }
    auto ms = both.mismatches(s);
    // An undecided comparison (the spec's walk past a barrier was cut) is no disagreement; a run
    // proves nothing either way, so it goes on.
    std::erase_if(ms, [](const Mismatch& m) { return m.undecided; });
    if (!ms.empty()) {
      r.outcome = RunOutcome::Mismatch;
      r.mismatch = std::move(ms.front());
      return;
    }
    steps.clear();
    both.visible(s, steps);
    if (steps.empty()) {
      no_step_left(r, both.finished(s), both.spec().control(), s.spec.control);
      return;
    }
    if (n >= max_steps) {
      r.outcome = RunOutcome::StepLimit;
      return;
    }
    if (r.events.size() >= kMaxEvents) {
      r.outcome = RunOutcome::StepLimit;
      r.limit = "events " + std::to_string(kMaxEvents) + " (internal steps included)";
      return;
    }
    rec.apply(s, steps[pick(rng, steps.size())]);
  }
}

}  // namespace

RunResult run_lockstep(const Lockstep& both, std::uint64_t seed, std::size_t max_steps,
                       const std::vector<Step>& prefix) {
  RunResult r;
  try {
    run_into(both, seed, max_steps, prefix, r);
  } catch (const InternalStepLimit& e) {  // a step would not end (a loop without instructions)
    r.outcome = RunOutcome::StepLimit;
    r.limit = e.what();
  }
  return r;
}

std::vector<RunEvent> replay_lockstep(const Lockstep& both, const std::vector<Step>& visible_steps) {
  std::vector<RunEvent> events;
  const LockstepRecorder rec(both, events);
  LockstepState s = rec.initial();
  for (const auto& st : visible_steps) rec.apply(s, st);
  return events;
}

void replay_lockstep(const Lockstep& both, const std::vector<Step>& visible_steps,
                     const std::function<void(const RunEvent&)>& sink) {
  std::vector<RunEvent> events;
  const LockstepRecorder rec(both, events);
  auto flush = [&] {
    for (const auto& ev : events) sink(ev);
    events.clear();
  };
  LockstepState s = rec.initial();
  flush();
  for (const auto& st : visible_steps) {
    rec.apply(s, st);
    flush();
  }
}

}  // namespace syncbisim::semantics
