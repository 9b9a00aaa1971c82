#include "prover/prove.h"

#include <z3++.h>
#include <chrono>

#include "analysis/dependency_analysis.h"
#include "prover/detail/encoder.h"
#include "prover/places.h"
#include "prover/replay.h"

namespace syncbisim::prover {

const char* to_string(Answer a) {
  switch (a) {
    case Answer::Proved: return "proved";
    case Answer::Refuted: return "refuted";
    case Answer::Unknown: return "unknown";
  }
  return "?";
}

int exit_status(Answer a) {
  switch (a) {
    case Answer::Proved: return 0;
    case Answer::Refuted: return 1;
    case Answer::Unknown: return 3;
  }
  return 3;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::uint64_t value_of(const z3::model& m, const z3::expr& e) {
  const auto v = m.eval(e, true);
  std::int64_t x = 0;
  return v.is_numeral_i64(x) && x > 0 ? static_cast<std::uint64_t>(x) : 0;
}

// Turns a satisfying assignment of the negation plus the constant-trip family into a replay.
void refute_or_unknown(const model::Program& spec, const model::Program& impl, detail::Encoder& enc, z3::solver& s,
                       const ProveOptions& o, ConsumerResult& out) {
  // Smallest caps first: small trips keep the replay's exhaustive search small.
  std::optional<z3::model> m;
  for (std::uint64_t cap : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128}) {
    s.push();
    for (const auto& f : enc.family) s.add(f);
    for (const auto& f : enc.family_trips(cap)) s.add(f);
    const auto r = s.check();
    if (r == z3::sat) m = s.get_model();
    s.pop();
    if (m) break;
  }
  if (!m) {
    out.reason = "counterexample not reproducible: no history with constant trip counts shows it";
    return;
  }
  const auto& ix = enc.places.index();
  ReplayRequest req;
  req.instr = out.instr;
  req.engine = out.engine;
  req.max_states = o.replay_max_states;
  req.max_seconds = o.replay_max_seconds;
  for (model::LoopId l = 1; l < ix.loops.size(); ++l) {
    const auto t = value_of(*m, enc.T(l));
    out.model.trips[ix.loops[l].name] = t;
    if (!enc.replay_bounds(l).fixable) continue;  // the replay keeps the original rule
    if (ix.loops[l].kind == model::LoopKind::Loop) req.loop_trips[ix.loops[l].name] = t;
    if (ix.loops[l].kind == model::LoopKind::CondThen) req.cond_taken[ix.loops[l].cond] = t == 1 ? 0 : 1;
  }
  for (const auto l : enc.path)
    if (l != model::kTop) out.model.iteration[ix.loops[l].name] = value_of(*m, enc.j(l));
  for (const auto& [i, r] : enc.R_) out.model.retired[ix.instrs[i].name] = value_of(*m, r);
  if (!o.replay) {
    out.reason = "counterexample not replayed";
    return;
  }
  auto rep = replay(spec, impl, req);
  if (!rep) {
    out.reason = "counterexample not reproducible";
    return;
  }
  out.answer = Answer::Refuted;
  out.replay = std::move(*rep);
  // One line: the kind and the history; the numbers and the trace are in --json.
  std::string at;
  for (const auto& [loop, it] : out.model.iteration) at += (at.empty() ? "" : ", ") + loop + " = " + std::to_string(it);
  std::string trips;
  for (const auto& [loop, t] : req.loop_trips) trips += (trips.empty() ? "" : ", ") + loop + " = " + std::to_string(t);
  out.reason = out.replay.kind + " (trips: " + (trips.empty() ? "as in the spec" : trips) + "; at iteration " +
               (at.empty() ? "-" : at) + "; explorer trace of " + std::to_string(out.replay.trace.size()) + " steps)";
}

void prove_one(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
               const Places& places, model::InstrId c, const std::vector<const analysis::DependencyInfo*>& deps,
               const ProveOptions& o, ConsumerResult& out) {
  z3::context ctx;
  detail::Encoder enc(ctx, places, spec_ix, c);
  std::optional<z3::expr> impl_ok, spec_ok;
  try {
    impl_ok = enc.waits_hold();
    spec_ok = enc.deps_hold(deps);
    enc.add_retirement_order();
  } catch (const detail::Outside& e) {
    out.reason = e.reason;
    return;
  }
  z3::solver s(ctx);
  z3::params p(ctx);
  p.set("timeout", o.z3_timeout_ms);
  s.set(p);
  for (const auto& g : enc.general) s.add(g);
  s.add(*impl_ok != *spec_ok);
  switch (s.check()) {
    case z3::unsat: out.answer = Answer::Proved; return;
    case z3::unknown: out.reason = "z3: " + s.reason_unknown(); return;
    case z3::sat: refute_or_unknown(spec, impl, enc, s, o, out); return;
  }
}

}  // namespace

ProveResult prove(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
                  const model::ProgramIndex& impl_ix, const ProveOptions& options) {
  const auto start = Clock::now();
  ProveResult result;
  // Places count statements of normalized bodies (consecutive blocks are one region); loaders
  // normalize, an allocator's output in memory may not be.
  auto norm = impl;
  model::normalize(norm);
  auto norm_ix = model::ProgramIndex::build(norm);
  const auto& ix = norm_ix.ok() ? *norm_ix : impl_ix;
  const auto places = Places::build(norm_ix.ok() ? norm : impl, ix);
  const auto analysis = analysis::analyze_dependencies(spec, spec_ix);
  for (model::InstrId c = 0; c < ix.instrs.size(); ++c) {
    const auto& name = ix.instrs[c].name;
    std::vector<const analysis::DependencyInfo*> deps;
    for (const auto& d : analysis.deps)
      if (spec_ix.instrs[d.consumer].name == name) deps.push_back(&d);
    if (deps.empty() && places.instr(c).waits.empty()) continue;
    const auto t = Clock::now();
    ConsumerResult r;
    r.instr = name;
    r.engine = ix.engines[places.instr(c).engine];
    if (places.has_barrier())
      r.reason = "barriers reset semaphores: outside the prover's fragment (the explorer covers them)";
    else prove_one(spec, spec_ix, impl, places, c, deps, options, r);
    r.seconds = since(t);
    result.consumers.push_back(std::move(r));
  }
  bool refuted = false, unknown = false;
  for (const auto& r : result.consumers) {
    refuted = refuted || r.answer == Answer::Refuted;
    unknown = unknown || r.answer == Answer::Unknown;
  }
  result.verdict = refuted ? Answer::Refuted : (unknown ? Answer::Unknown : Answer::Proved);
  result.seconds = since(start);
  return result;
}

}  // namespace syncbisim::prover
