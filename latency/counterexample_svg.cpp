#include "latency/counterexample_svg.h"

#include "checker/trace_view.h"
#include "timing/svg.h"

namespace syncbisim::latency {

const checker::Violation* deciding_violation(const checker::CheckResult& r) {
  const checker::Violation* pick = nullptr;
  for (const auto& v : r.violations)
    if (!pick || (v.kind == checker::ViolationKind::UnderSync && pick->kind != checker::ViolationKind::UnderSync))
      pick = &v;
  return pick;
}

timing::CounterexampleView counterexample_view(const semantics::Lockstep& both, const checker::Violation& v) {
  const auto& spec = both.spec().program();
  timing::CounterexampleView view;
  view.trace = v.trace;
  std::string what = spec.engines[v.engine] + (v.instr ? " before " + spec.instrs[*v.instr].name : "");
  switch (v.kind) {
    case checker::ViolationKind::UnderSync:
      view.title = "under-synchronized: " + spec.engines[v.engine] + " may issue " +
                   spec.instrs[v.mismatch.instr].name + " too early";
      view.mismatch = v.mismatch;
      break;
    case checker::ViolationKind::OverSync:
      view.title =
          "over-synchronized: " + spec.engines[v.engine] + " waits to issue " + spec.instrs[v.mismatch.instr].name;
      view.mismatch = v.mismatch;
      break;
    case checker::ViolationKind::Deadlock:
      view.title =
          std::string(v.spec_deadlocks_too ? "spec deadlock" : "impl deadlock (over-synchronized)") + ": " + what;
      view.stuck = std::make_pair(v.engine, v.instr);
      view.spec_deadlocks_too = v.spec_deadlocks_too;
      break;
    case checker::ViolationKind::Overflow:
      view.title = checker::describe_overflow(both.impl().program(), v.overflow);
      break;
  }
  return view;
}

std::optional<std::string> counterexample_svg(const semantics::Lockstep& both, const checker::CheckResult& r) {
  const checker::Violation* pick = deciding_violation(r);
  if (!pick) return std::nullopt;
  return timing::render_svg(timing::counterexample_timeline(both, counterexample_view(both, *pick)));
}

std::string run_svg(const semantics::Lockstep& both, const semantics::RunResult& r) {
  timing::CounterexampleView view;
  for (const auto& ev : r.events)
    if (ev.visible) view.trace.push_back(ev.step);
  const auto& spec = both.spec().program();
  if (r.mismatch) {
    view.mismatch = r.mismatch;
    view.title = std::string(r.mismatch->impl_can ? "under-synchronized: " : "over-synchronized: ") +
                 spec.engines[r.mismatch->engine] + " before " + spec.instrs[r.mismatch->instr].name;
  } else if (!r.stuck.empty()) {
    view.title = "deadlock: " + spec.engines[r.stuck.front()] + " cannot go on";
    view.stuck = std::make_pair(r.stuck.front(), std::optional<semantics::InstrId>{});
  } else {
    view.title = std::string("run: ") + semantics::to_string(r.outcome);
  }
  return timing::render_svg(timing::counterexample_timeline(both, view));
}

}  // namespace syncbisim::latency
