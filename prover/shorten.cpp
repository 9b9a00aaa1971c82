#include "prover/shorten.h"

#include <algorithm>

#include "checker/explorer.h"
#include "model/walk.h"

namespace syncbisim::prover {

namespace {

using semantics::OpKind;
using semantics::Step;
using semantics::StepKind;

// Spec: the fixed trips replace the rules. Impl: rules dropped where fixed (an impl takes its
// trips from the spec, formats.md), so the two cannot disagree.
void fix_trips(std::vector<model::Stmt>& body, const std::map<std::string, std::uint32_t>& loops,
               const std::map<std::string, std::uint32_t>& conds, bool spec) {
  model::for_each_stmt(body, [&](model::Stmt& st, const model::LoopPath&) {
    if (auto* l = std::get_if<model::Loop>(&st.node)) {
      if (auto it = loops.find(l->id); it != loops.end()) {
        if (spec) l->trip = model::TripRule{model::ConstTrip{it->second}, {}, false};
        else l->trip.reset();
      }
    } else if (auto* c = std::get_if<model::Cond>(&st.node)) {
      if (auto it = conds.find(c->id); it != conds.end()) {
        if (spec) c->taken = model::TripRule{model::ConstTrip{it->second}, {}, false};
        else c->taken.reset();
      }
    }
  });
}

// The planned choice at a loop head both sides stand at, if the original needs one there.
std::optional<Step> choice(const semantics::Lockstep& both, const semantics::LockstepState& s, semantics::EngineId h,
                           const std::map<semantics::LoopId, std::uint32_t>& trips) {
  const auto& op = both.spec().control().next_op(s.spec.control, h);
  if (op.kind != OpKind::LoopHead || both.impl().control().next_op(s.impl.control, h).kind != OpKind::LoopHead)
    return std::nullopt;
  Step det;
  if (both.spec().control().deterministic_loop_step(s.spec.control, h, det)) return std::nullopt;
  const auto* range = std::get_if<model::RangeTrip>(&both.spec().program().loops[op.a].rule[h]);
  if (!range) return std::nullopt;
  const auto it = trips.find(op.a);
  if (it == trips.end()) return std::nullopt;  // a rule the fixed pair kept: its trace chooses
  return Step{StepKind::Choose, h, std::clamp(it->second, range->min, range->max), op.a};
}

}  // namespace

std::optional<ShortTrace> shorter_trace(const model::Program& spec_in, const model::Program& impl_in,
                                        const checker::ProgramPair& original, const ShortenRequest& r,
                                        std::size_t than) {
  const auto& sp = original.spec_code();
  std::map<std::string, std::uint32_t> loops, conds;
  std::map<semantics::LoopId, std::uint32_t> fixed_trips;
  for (const auto& [l, v] : r.trips) {
    const auto& loop = sp.loops[l];
    if (loop.divergent) continue;  // one constant cannot stand for several engines' rules
    fixed_trips[l] = v;
    if (loop.kind == model::LoopKind::Loop) loops[loop.name] = v;
    if (loop.kind == model::LoopKind::CondThen) conds[loop.name.substr(0, loop.name.size() - 5)] = v;
  }
  auto spec = spec_in;
  auto impl = impl_in;
  fix_trips(spec.body, loops, conds, true);
  fix_trips(impl.body, loops, conds, false);
  auto fixed = checker::ProgramPair::make(spec, impl);
  if (!fixed) return std::nullopt;
  checker::CheckOptions o;
  o.max_states = r.max_states;
  o.max_seconds = r.max_seconds;
  const auto result = checker::check((*fixed)->lockstep(), o);
  const auto& fp = (*fixed)->spec_code();
  for (const auto& v : result.violations) {
    if (v.kind == checker::ViolationKind::Deadlock || !v.instr) continue;
    if (fp.instrs[*v.instr].name != sp.instrs[r.consumer].name || fp.engines[v.engine] != sp.engines[r.engine])
      continue;
    if ((v.kind == checker::ViolationKind::UnderSync) != r.under) continue;
    // Translate: the same steps on the original pair, with its trip choices taken as planned
    // as soon as an engine stands at one.
    const auto& both = original.lockstep();
    auto s = both.initial();
    std::vector<Step> out;
    auto choose_all = [&] {
      for (bool any = true; any;) {
        any = false;
        for (semantics::EngineId h = 0; h < sp.engine_count(); ++h)
          if (const auto ch = choice(both, s, h, fixed_trips)) {
            both.apply(s, *ch);
            out.push_back(*ch);
            any = true;
          }
      }
    };
    bool ok = true;
    try {
      for (const auto& st : v.trace) {
        choose_all();
        semantics::Steps enabled;
        both.visible(s, enabled);
        if (!enabled.contains(st)) {
          ok = false;
          break;
        }
        both.apply(s, st);
        out.push_back(st);
      }
    } catch (const semantics::InternalStepLimit&) {  // a step that would not end: no shorter trace
      return std::nullopt;
    }
    if (!ok || out.size() >= than) return std::nullopt;
    for (const auto& m : both.mismatches(s))
      if (m.engine == r.engine && m.instr == r.consumer && (m.impl_can && !m.spec_can) == r.under)
        return ShortTrace{std::move(out), m};
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace syncbisim::prover
