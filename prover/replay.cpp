#include "prover/replay.h"

#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/trace_view.h"

namespace syncbisim::prover {

namespace {

// Spec: the fixed trips replace the rules. Impl: rules dropped where fixed (an impl takes its
// trips from the spec, docs/formats.md), so the two cannot disagree.
void fix_trips(std::vector<model::Stmt>& body, const ReplayRequest& r, bool spec) {
  for (auto& st : body) {
    if (auto* l = std::get_if<model::Loop>(&st.node)) {
      if (auto it = r.loop_trips.find(l->id); it != r.loop_trips.end()) {
        if (spec) l->trip = model::TripRule{model::ConstTrip{static_cast<std::uint32_t>(it->second)}, {}, false};
        else l->trip.reset();
      }
      fix_trips(l->body, r, spec);
    } else if (auto* c = std::get_if<model::Cond>(&st.node)) {
      if (auto it = r.cond_taken.find(c->id); it != r.cond_taken.end()) {
        if (spec) c->taken = model::TripRule{model::ConstTrip{static_cast<std::uint32_t>(it->second)}, {}, false};
        else c->taken.reset();
      }
      fix_trips(c->then_body, r, spec);
      fix_trips(c->else_body, r, spec);
    }
  }
}

}  // namespace

std::optional<Replay> replay(const model::Program& spec_in, const model::Program& impl_in, const ReplayRequest& r) {
  auto spec = spec_in;
  auto impl = impl_in;
  fix_trips(spec.body, r, true);
  fix_trips(impl.body, r, false);
  auto pair = checker::ProgramPair::make(spec, impl);
  if (!pair) return std::nullopt;
  const auto& both = (*pair)->lockstep();
  const auto& spec_code = (*pair)->spec_code();
  const auto& impl_code = (*pair)->impl_code();
  checker::CheckOptions o;
  o.max_states = r.max_states;
  o.max_seconds = r.max_seconds;
  const auto result = checker::check(both, o);
  for (const auto& v : result.violations) {
    if (!v.instr || spec_code.instrs[*v.instr].name != r.instr || spec_code.engines[v.engine] != r.engine) continue;
    Replay out;
    out.kind = checker::to_string(v.kind);
    out.states = result.states;
    if (v.kind != checker::ViolationKind::Deadlock)
      out.description = checker::describe_mismatch(spec_code, impl_code, v.mismatch);
    else out.description = "the implementation deadlocks before " + r.instr + " on " + r.engine;
    for (const auto& st : v.trace) out.trace.push_back(semantics::describe(spec_code, st));
    return out;
  }
  return std::nullopt;
}

}  // namespace syncbisim::prover
