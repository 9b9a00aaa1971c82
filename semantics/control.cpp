#include "semantics/control.h"

#include <algorithm>

namespace syncbisim::semantics {

void hash_into(Hasher& h, const ControlState& s) {
  for (const auto& e : s.engines) {
    h.add(e.pc);
    h.add_run(e.frames.data(), e.frames.size());
    h.add_run(e.trips_started.data(), e.trips_started.size());
    h.add(e.inflight.size());
    for (const auto& i : e.inflight) h.add((std::uint64_t{i.instr} << 1) | (i.committed ? 1 : 0));
  }
  for (const auto& p : s.pending) {
    h.add(p.size());
    for (auto v : p) h.add(v);
  }
}

ControlState Control::initial() const {
  ControlState s;
  const auto loops = p_->loop_count();
  s.engines.resize(p_->engine_count());
  for (auto& e : s.engines) {
    e.frames.assign(loops, Frame{});
    e.frames[model::kTop] = Frame{1, 1};  // @top runs exactly once and is running from the start
    e.trips_started.assign(loops, 0);
  }
  s.pending.resize(loops);
  return s;
}

namespace {
// Branch value 0 (then) runs the then-loop once.
std::uint32_t then_trip(std::uint32_t branch) { return branch == 0 ? 1 : 0; }
}  // namespace

std::uint64_t Control::known_trip(const ControlState& s, EngineId e, LoopId l) const {
  const auto& loop = p_->loops[l];
  const auto& ec = s.engines[e];
  if (loop.kind == model::LoopKind::CondElse) return 1 - ec.frames[loop.then_sibling].trip;
  const auto& rule = loop.rule[e];
  const std::uint64_t k = ec.trips_started[l];
  std::uint64_t value = kUnknownTrip;
  if (!std::holds_alternative<model::RangeTrip>(rule)) {
    value = model::fixed_value(rule, k);
  } else if (!loop.divergent) {
    // Uniform control: the first engine to start trip k chose; the others read it.
    std::uint32_t base = UINT32_MAX;
    for (const auto& other : s.engines) base = std::min(base, other.trips_started[l]);
    const auto& pend = s.pending[l];
    if (k - base < pend.size()) value = pend[k - base];
  }
  if (value != kUnknownTrip && loop.kind == model::LoopKind::CondThen)
    return then_trip(static_cast<std::uint32_t>(value));
  return value;
}

bool Control::deterministic_loop_step(const ControlState& s, EngineId e, Step& out) const {
  const Op& op = next_op(s, e);
  if (op.kind == OpKind::LoopBack) {
    out = Step{StepKind::BackEdge, e, op.a, 0};
    return true;
  }
  if (op.kind != OpKind::LoopHead) return false;
  const auto& f = s.engines[e].frames[op.a];
  if (f.iter > 0) {
    out = Step{f.iter < f.trip ? StepKind::LoopEntry : StepKind::LoopExit, e, op.a, 0};
    return true;
  }
  const auto t = known_trip(s, e, op.a);
  if (t == kUnknownTrip) return false;
  // The trip rides along (aux = trip + 1), so applying the step need not work it out again.
  out = Step{t > 0 ? StepKind::LoopEntry : StepKind::LoopExit, e, op.a,
             t < UINT32_MAX ? static_cast<std::uint32_t>(t) + 1 : 0};
  return true;
}

void Control::loop_steps(const ControlState& s, EngineId e, Steps& out) const {
  const Op& op = next_op(s, e);
  if (op.kind == OpKind::LoopBack) {
    out.push_back(Step{StepKind::BackEdge, e, op.a, 0});
    return;
  }
  if (op.kind != OpKind::LoopHead) return;
  const LoopId l = op.a;
  const auto& f = s.engines[e].frames[l];
  if (f.iter > 0) {  // back at the guard of a running trip
    out.push_back(Step{f.iter < f.trip ? StepKind::LoopEntry : StepKind::LoopExit, e, l, 0});
    return;
  }
  if (const auto t = known_trip(s, e, l); t != kUnknownTrip) {
    out.push_back(Step{t > 0 ? StepKind::LoopEntry : StepKind::LoopExit, e, l, 0});
    return;
  }
  // Unknown only for a range (known_trip answers the rest): one choice per value, held as one run
  // (a range may have 2^32 values).
  const auto& range = std::get<model::RangeTrip>(p_->loops[l].rule[e]);
  out.push_choices(e, l, range.min, range.max);
}

void Control::loop_steps(const ControlState& s, EngineId e, std::vector<Step>& out) const {
  Steps steps;
  loop_steps(s, e, steps);
  steps.expand_into(out);
}

void Control::enabled(const ControlState& s, EngineId e, std::vector<Step>& out, bool with_loop_steps) const {
  Steps steps;
  enabled(s, e, steps, with_loop_steps);
  steps.expand_into(out);
}

void Control::enabled(const ControlState& s, EngineId e, Steps& out, bool with_loop_steps) const {
  const auto& ec = s.engines[e];
  if (!opt_.fuse_commit)
    for (std::uint32_t i = 0; i < ec.inflight.size(); ++i)
      if (!ec.inflight[i].committed) out.push_back(Step{StepKind::Commit, e, i, 0});
  if (!ec.inflight.empty() && ec.inflight.front().committed)
    out.push_back(Step{StepKind::Retire, e, ec.inflight.front().instr, 0});
  if (with_loop_steps) loop_steps(s, e, out);
}

LoopId Control::start_trip(ControlState& s, EngineId e, LoopId l, std::uint32_t trip) const {
  auto& ec = s.engines[e];
  const auto& loop = p_->loops[l];
  if (loop.chosen || loop.indexed) {
    if (loop.chosen && !loop.divergent) {
      // Keep `pending` exactly the choices of trips [min started, max started).
      std::uint32_t base = UINT32_MAX, top = 0;
      for (const auto& other : s.engines) {
        base = std::min(base, other.trips_started[l]);
        top = std::max(top, other.trips_started[l]);
      }
      // `pending` holds the choice as made (for a cond: the branch, 0 = then), which known_trip()
      // converts again; storing the then-loop's trip here made the other engines take the
      // other branch.
      const std::uint32_t choice = loop.kind == model::LoopKind::CondThen ? then_trip(trip) : trip;
      if (ec.trips_started[l] == top && ec.trips_started[l] - base == s.pending[l].size())
        s.pending[l].push_back(choice);
      ++ec.trips_started[l];
      std::uint32_t new_base = UINT32_MAX;
      for (const auto& other : s.engines) new_base = std::min(new_base, other.trips_started[l]);
      if (new_base > base) s.pending[l].erase(s.pending[l].begin());
    } else {
      ++ec.trips_started[l];
    }
  }
  ec.frames[l] = Frame{0, trip};
  return enter_or_exit(s, e, l);
}

LoopId Control::enter_or_exit(ControlState& s, EngineId e, LoopId l) const {
  auto& ec = s.engines[e];
  auto& f = ec.frames[l];
  const Op& head = p_->code[e][ec.pc];
  if (f.iter < f.trip) {
    ++f.iter;
    ++ec.pc;
    return l;
  }
  f.iter = 0;  // the trip is done; `trip` stays (a cond's else-branch reads it)
  ec.pc = head.b;
  return kNoLoop;
}

LoopId Control::apply(ControlState& s, const Step& st) const {
  auto& ec = s.engines[st.engine];
  switch (st.kind) {
    case StepKind::Commit: ec.inflight[st.arg].committed = true; return kNoLoop;
    case StepKind::Retire: ec.inflight.erase(ec.inflight.begin()); return kNoLoop;
    case StepKind::BackEdge: ec.pc = p_->code[st.engine][ec.pc].b; return kNoLoop;
    case StepKind::Choose: {
      const auto& loop = p_->loops[st.aux];
      const std::uint32_t trip = loop.kind == model::LoopKind::CondThen ? then_trip(st.arg) : st.arg;
      return start_trip(s, st.engine, st.aux, trip);
    }
    case StepKind::LoopEntry:
    case StepKind::LoopExit: {
      const LoopId l = st.arg;
      if (ec.frames[l].iter > 0) return enter_or_exit(s, st.engine, l);
      const auto trip = st.aux > 0 ? st.aux - 1 : static_cast<std::uint32_t>(known_trip(s, st.engine, l));
      return start_trip(s, st.engine, l, trip);
    }
    default: return kNoLoop;
  }
}

void Control::issue(ControlState& s, EngineId e, InstrId i) const {
  auto& ec = s.engines[e];
  ec.inflight.push_back(InFlight{i, opt_.fuse_commit});
  ++ec.pc;
}

}  // namespace syncbisim::semantics
