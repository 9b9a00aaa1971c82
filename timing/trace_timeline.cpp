#include "timing/trace_timeline.h"

#include <algorithm>
#include <deque>

namespace syncbisim::timing {

namespace {

using semantics::EngineId;
using semantics::InstrId;
using semantics::StepKind;

// The iteration of every loop around `instr` that `e` is in now, outermost first.
std::vector<std::pair<model::LoopId, std::uint32_t>> iterations(const semantics::CompiledProgram& p,
                                                                const semantics::ControlState& c, EngineId e,
                                                                InstrId instr) {
  std::vector<std::pair<model::LoopId, std::uint32_t>> out;
  for (auto l = p.instrs[instr].parent; l != model::kTop; l = p.loops[l].parent)
    if (p.loops[l].kind == model::LoopKind::Loop) out.emplace_back(l, c.engines[e].frames[l].iter);
  return {out.rbegin(), out.rend()};
}

std::string dep_label(const semantics::CompiledProgram& p, const semantics::CompiledDep& d) {
  std::string out = p.instrs[d.producer].name + " -> " + p.instrs[d.consumer].name;
  std::string dist;
  for (std::size_t j = 0; j < d.common.size(); ++j)
    if (d.distance[j] != 0)
      dist += (dist.empty() ? "" : ", ") + p.loops[d.common[j]].name + ": " + std::to_string(d.distance[j]);
  return dist.empty() ? out : out + " {" + dist + "}";
}

std::string spec_numbers(const semantics::CompiledProgram& p, const semantics::DependencyCheck& c) {
  const auto& prod = p.instrs[p.deps[c.dep].producer].name;
  if (c.underflow) return "spec: target before the first iteration, nothing owed";
  return "spec: R(" + prod + ") = " + std::to_string(c.retired) + ", owed " + std::to_string(c.owed) +
         (c.satisfied() ? " (may issue)" : " (must wait)");
}

std::string impl_numbers(const semantics::CompiledProgram& impl, const semantics::WaitCheck& w) {
  const auto& s = impl.semaphores[w.sem];
  return "impl: " + s + " = " + std::to_string(w.value) + ", wait " + s + " >= " + std::to_string(w.threshold) +
         (w.holds() ? " (holds)" : " (blocks)");
}

}  // namespace

Timeline counterexample_timeline(const semantics::Lockstep& both, const CounterexampleView& v) {
  const auto& spec = both.spec().program();
  const auto& impl = both.impl().program();
  const auto engines = spec.engine_count();
  Timeline t;
  t.lanes = spec.engines;
  t.unit = "steps of the trace";
  t.box_legend = "instruction: from its issue to its retirement";
  t.title = "counterexample: " + v.title;
  t.subtitle = std::to_string(v.trace.size()) +
               " steps the spec and the impl take together, then the step where they part (highlighted)";

  struct Open {
    std::size_t box;
  };
  std::vector<std::deque<Open>> inflight(engines);
  std::vector<std::vector<std::size_t>> instances_of(spec.instrs.size());
  std::vector<double> at_barrier(engines, -1);
  double pos = 0;
  // Engine e's time at a barrier, from its arrival to `until`.
  auto barrier_span = [&](std::size_t e, double until, const std::string& tooltip) {
    TimelineSpan sp;
    sp.lane = e;
    sp.start = at_barrier[e] - 0.45;
    sp.end = until + 0.45;
    sp.kind = TimelineSpan::Kind::Barrier;
    sp.tooltip = spec.engines[e] + tooltip;
    t.spans.push_back(sp);
  };
  const semantics::InternalObserver observe = [&](const semantics::Step& st, const semantics::LockstepState&) {
    if (st.kind == StepKind::BarrierArrive) at_barrier[st.engine] = pos;
    if (st.kind == StepKind::BarrierRelease) {
      for (std::size_t e = 0; e < engines; ++e) {
        if (at_barrier[e] < 0) continue;
        barrier_span(e, pos, " at a barrier");
        at_barrier[e] = -1;
      }
      t.marks.push_back(TimelineMark{pos + 0.45, "barrier"});
    }
  };
  auto s = both.initial(observe);
  for (std::size_t i = 0; i < v.trace.size(); ++i) {
    const auto& st = v.trace[i];
    pos = static_cast<double>(i + 1);
    // the iteration the engine issues in: settling after the issue may already start the next one
    const auto iter = st.kind == StepKind::Issue ? iterations(spec, s.spec.control, st.engine, st.arg)
                                                 : std::vector<std::pair<model::LoopId, std::uint32_t>>{};
    both.apply(s, st, observe);
    if (st.kind == StepKind::Issue) {
      TimelineBox b;
      b.lane = st.engine;
      b.start = pos - 0.45;
      b.end = pos + 0.45;
      b.label = spec.instrs[st.arg].name;
      b.detail = iteration_label(spec, iter);
      b.tooltip =
          b.label + (b.detail.empty() ? "" : " (" + b.detail + ")") + " issued at step " + std::to_string(i + 1);
      instances_of[st.arg].push_back(t.boxes.size());
      inflight[st.engine].push_back(Open{t.boxes.size()});
      t.boxes.push_back(std::move(b));
    } else if (st.kind == StepKind::Retire && !inflight[st.engine].empty()) {
      auto& b = t.boxes[inflight[st.engine].front().box];
      b.end = pos + 0.45;
      b.tooltip += ", retired at step " + std::to_string(i + 1);
      inflight[st.engine].pop_front();
    }
  }
  const double end = static_cast<double>(v.trace.size() + 1);
  for (auto& q : inflight)
    for (const auto& o : q) {
      t.boxes[o.box].end = end - 0.55;
      t.boxes[o.box].tooltip += ", still in flight";
    }
  for (std::size_t e = 0; e < engines; ++e)
    if (at_barrier[e] >= 0) barrier_span(e, end, " held at a barrier");
  t.t0 = 0;
  t.t1 = end + 1;  // widened below when a label needs room

  auto parting_box = [&](EngineId e, InstrId instr, bool past_barrier, const std::string& tooltip) {
    TimelineBox b;
    b.lane = e;
    b.start = end - 0.45;
    b.end = end + 0.45;
    b.label = spec.instrs[instr].name;
    b.detail = past_barrier ? "past the barrier" : iteration_label(spec, iterations(spec, s.spec.control, e, instr));
    b.tooltip = tooltip;
    b.highlight = true;
    b.ghost = true;
    t.boxes.push_back(b);
  };

  if (v.mismatch) {
    const auto& m = *v.mismatch;
    const auto& name = spec.instrs[m.instr].name;
    const auto& engine = spec.engines[m.engine];
    parting_box(m.engine, m.instr, m.impl_blocked_at_barrier,
                m.impl_can ? engine + " may issue " + name + " in the impl, not in the spec (under-synchronization)"
                           : engine + " may issue " + name + " in the spec, not in the impl (over-synchronization)");
    // The dependency that decides (as check --json picks it) and the impl's wait on the
    // semaphore its producer signals.
    const semantics::DependencyCheck* pick = nullptr;
    for (const auto& c : m.spec_checks)
      if (!pick || (m.impl_can && !c.satisfied() && pick->satisfied())) pick = &c;
    const semantics::WaitCheck* wait = nullptr;
    if (pick) {
      const auto producer = spec.deps[pick->dep].producer;
      for (const auto& w : m.impl_checks)
        if (impl.instrs[producer].has_signal && impl.instrs[producer].signal_sem == w.sem) wait = &w;
    }
    for (const auto& w : m.impl_checks)
      if (!wait || (!m.impl_can && !w.holds() && wait->holds())) wait = &w;
    // held at a barrier, the spec's next instruction lies past loop control: its iteration is not
    // the one the engine's frames show
    const auto here = m.impl_blocked_at_barrier
                          ? std::string("past the barrier")
                          : iteration_label(spec, iterations(spec, s.spec.control, m.engine, m.instr));
    std::string label = name + (here.empty() ? "" : " (" + here + ")") + ": here the two sides part\n";
    label += "dependency " + (pick ? dep_label(spec, spec.deps[pick->dep]) : std::string("none"));
    label += "\n" + (pick ? spec_numbers(spec, *pick) : std::string("spec: nothing owed"));
    if (m.impl_blocked_at_barrier) label += "\nimpl: held at a barrier";
    else label += "\n" + (wait ? impl_numbers(impl, *wait) : std::string("impl: no wait"));
    TimelineArrow ar;
    ar.to_lane = m.engine;
    ar.to = end;
    ar.label = label;
    ar.highlight = true;
    ar.label_at = end + 0.75;
    // room right of the parting step for the label (about 7 characters per step at the usual scale)
    std::size_t longest = 0;
    for (std::size_t a = 0, b; a <= label.size(); a = b + 1) {
      b = label.find('\n', a);
      if (b == std::string::npos) b = label.size();
      longest = std::max(longest, b - a);
    }
    t.t1 = std::max(t.t1, end + 1.5 + static_cast<double>(longest) * std::max(0.08, end / 140.0));
    if (pick && !pick->underflow && pick->owed > 0) {
      const auto producer = spec.deps[pick->dep].producer;
      const auto& inst = instances_of[producer];
      ar.from_lane = spec.instrs[producer].engine;
      if (pick->owed <= inst.size()) {
        const auto& pb = t.boxes[inst[pick->owed - 1]];
        ar.from = pb.end;
        t.boxes[inst[pick->owed - 1]].tooltip += " (the instance the consumer owes)";
      } else {
        // the owed instance has not issued yet: a dashed box for it where it would stand
        TimelineBox g;
        g.lane = ar.from_lane;
        g.start = end - 0.45;
        g.end = end + 0.45;
        g.label = spec.instrs[producer].name;
        g.detail = "not issued";
        g.ghost = true;
        g.tooltip = "the owed instance of " + g.label + " (number " + std::to_string(pick->owed) + ") has not issued";
        t.boxes.push_back(g);
        ar.from = end;
        ar.label += "\n(the owed " + g.label + " has not issued yet)";
      }
      t.arrows.push_back(ar);
    } else {
      // nothing owed: no producer instance to point at, only the label
      ar.from_lane = m.engine;
      ar.from = ar.to;
      t.arrows.push_back(ar);
    }
    t.notes.push_back((m.impl_can ? "under-synchronization: " : "over-synchronization: ") + engine +
                      (m.impl_can ? " may issue " + name + " in the impl before its dependency is satisfied"
                                  : " waits to issue " + name + " in the impl although the spec may issue it"));
    for (const auto& c : m.spec_checks)
      t.notes.push_back("  " + dep_label(spec, spec.deps[c.dep]) + ": " + spec_numbers(spec, c));
    for (const auto& w : m.impl_checks) t.notes.push_back("  " + impl_numbers(impl, w));
  } else if (v.stuck) {
    const auto [e, instr] = *v.stuck;
    t.subtitle = std::to_string(v.trace.size()) + " steps the spec and the impl take together, then " +
                 (v.spec_deadlocks_too ? "both are stuck" : "the impl is stuck where the spec could go on");
    t.highlight_legend = "where the engine is stuck";
    t.highlight_suffix = ": waits here for ever";
    if (instr)
      parting_box(e, *instr, false, spec.engines[e] + " waits to issue " + spec.instrs[*instr].name + " for ever");
    t.notes.push_back(std::string("deadlock: ") + spec.engines[e] + " cannot go on" +
                      (instr ? " before " + spec.instrs[*instr].name : "") +
                      (v.spec_deadlocks_too ? "; the spec is stuck there too" : "; the spec could go on"));
  }
  return t;
}

}  // namespace syncbisim::timing
