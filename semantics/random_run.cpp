#include "semantics/random_run.h"

#include <random>

namespace syncbisim::semantics {

const char* to_string(RunOutcome o) {
  switch (o) {
    case RunOutcome::Finished: return "finished";
    case RunOutcome::Deadlock: return "deadlock";
    case RunOutcome::Mismatch: return "mismatch";
    case RunOutcome::StepLimit: return "step-limit";
  }
  return "?";
}

namespace {

std::size_t pick(std::mt19937_64& rng, std::size_t n) {
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
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
  std::vector<Step> steps;
  for (std::size_t n = 0;; ++n) {
    steps.clear();
    spec.enabled(s, steps);
    if (steps.empty()) {
      if (spec.all_finished(s)) {
        r.outcome = RunOutcome::Finished;
      } else {
        r.outcome = RunOutcome::Deadlock;
        for (EngineId e = 0; e < spec.program().engine_count(); ++e)
          if (!spec.control().finished(s.control, e)) r.stuck.push_back(e);
      }
      return r;
    }
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

RunResult run_lockstep(const Lockstep& both, std::uint64_t seed, std::size_t max_steps) {
  std::mt19937_64 rng(seed);
  RunResult r;
  const auto& prog = both.impl().program();
  const InternalObserver observe = [&](const Step& st, const LockstepState& now) {
    RunEvent ev{st, false, {}};
    if (st.kind == StepKind::LoopEntry) ev.detail = iteration_detail(prog, now.impl.control, st);
    if (st.kind == StepKind::RegOp) {
      const auto& op = prog.regops[st.arg];
      ev.detail = prog.registers[op.dst] + "=" + std::to_string(now.impl.regs[st.engine][op.dst]);
    }
    r.events.push_back(std::move(ev));
  };
  LockstepState s = both.initial(observe);
  std::vector<Step> steps;
  for (std::size_t n = 0;; ++n) {
    if (auto ms = both.mismatches(s); !ms.empty()) {
      r.outcome = RunOutcome::Mismatch;
      r.mismatch = std::move(ms.front());
      return r;
    }
    steps.clear();
    both.visible(s, steps);
    if (steps.empty()) {
      if (both.finished(s)) {
        r.outcome = RunOutcome::Finished;
      } else {
        r.outcome = RunOutcome::Deadlock;
        for (EngineId e = 0; e < prog.engine_count(); ++e)
          if (!both.spec().control().finished(s.spec.control, e)) r.stuck.push_back(e);
      }
      return r;
    }
    if (n >= max_steps) {
      r.outcome = RunOutcome::StepLimit;
      return r;
    }
    const Step st = steps[pick(rng, steps.size())];
    RunEvent ev{st, true, {}};
    if (st.kind == StepKind::Issue) {
      const auto deps = dep_detail(both.spec().explain(s.spec, st.engine));
      const auto waits = wait_detail(prog, both.impl().explain(s.impl, st.engine));
      ev.detail = deps.empty() && waits.empty() ? "" : "spec " + (deps.empty() ? "-" : deps) + " | impl " + (waits.empty() ? "-" : waits);
    }
    r.events.push_back(std::move(ev));
    both.apply(s, st, observe);
  }
}

}  // namespace syncbisim::semantics
