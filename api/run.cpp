// run() of the public API: one execution under a seeded random scheduler (`syncbisim run`), the
// spec alone or both in lock step, through the library calls the command makes
// (checker/run_report.h).
#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "api/detail/results.h"
#include "checker/program_pair.h"
#include "checker/run_report.h"
#include "checker/trace_view.h"
#include "latency/counterexample_svg.h"
#include "semantics/compiled_program.h"

namespace syncbisim {

namespace {

RunOutcome outcome_of(semantics::RunOutcome o) {
  switch (o) {
    case semantics::RunOutcome::Finished: return RunOutcome::Finished;
    case semantics::RunOutcome::Deadlock: return RunOutcome::Deadlock;
    case semantics::RunOutcome::Mismatch: return RunOutcome::Mismatch;
    case semantics::RunOutcome::StepLimit: return RunOutcome::StepLimit;
    case semantics::RunOutcome::Overflow: return RunOutcome::Overflow;
  }
  return RunOutcome::Finished;
}

checker::RunOptions internal(const RunOptions& o) { return checker::RunOptions{o.seed, o.max_steps, o.visible_only}; }

// What every run has, from the JSON `run --json` prints (so the two never disagree).
RunResult result_of(const nlohmann::json& j, const semantics::RunResult& r, std::string text) {
  RunResult out;
  out.outcome = outcome_of(r.outcome);
  out.events = api::detail::trace_steps(j.at("events"));
  if (j.contains("stuck"))
    for (const auto& e : j.at("stuck")) out.stuck.push_back(e.get<std::string>());
  out.limit = r.limit;
  out.text = std::move(text);
  out.json = formats::json_text(j);
  return out;
}

}  // namespace

std::string to_string(RunOutcome o) {
  switch (o) {
    case RunOutcome::Finished: return semantics::to_string(semantics::RunOutcome::Finished);
    case RunOutcome::Deadlock: return semantics::to_string(semantics::RunOutcome::Deadlock);
    case RunOutcome::Mismatch: return semantics::to_string(semantics::RunOutcome::Mismatch);
    case RunOutcome::StepLimit: return semantics::to_string(semantics::RunOutcome::StepLimit);
    case RunOutcome::Overflow: return semantics::to_string(semantics::RunOutcome::Overflow);
  }
  return "?";
}

int RunResult::exit_status() const {
  return outcome == RunOutcome::Finished ? 0 : outcome == RunOutcome::StepLimit ? 3 : 1;
}

RunResult run(const Program& spec, const RunOptions& options) {
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  // The command takes --from with IMPL only (and ignores it without); a call says so instead.
  if (!options.from.empty())
    throw Error("", "", "usage", "a trace to take first (from) needs an impl: run(spec, impl, options)");
  if (options.svg) throw Error("", "", "usage", "a picture of the run (svg) needs an impl: run(spec, impl, options)");
  static_cast<void>(api::detail::widths(options.register_bits, options.semaphore_bits));  // the command's range check
  const auto code = semantics::compile(spec.data().program, spec.data().index);
  const auto o = internal(options);
  const auto r = checker::run_once(code, o);
  return result_of(checker::render_run_json(code, r, o), r, checker::render_run_text(code, r, o));
}

RunResult run(const Program& spec, const Program& impl, const RunOptions& options) {
  api::detail::require_order(spec, impl);
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  std::optional<api::detail::TraceArgument> from;
  if (!options.from.empty()) from = api::detail::read_trace_argument(options.from, 0);
  const checker::TraceSteps* steps = from ? &from->steps : nullptr;
  const auto widths = api::detail::widths(options.register_bits, options.semaphore_bits);
  const auto [matched, pair] =
      api::detail::pair_of(spec, impl, checker::PairOptions{checker::run_semantics(steps, widths)});
  const auto o = internal(options);
  auto r = checker::run_once(*pair, o, steps);
  if (!r) api::detail::raise(r.error(), from ? from->name : impl.data().name);  // the trace does not fit
  const auto j = checker::render_run_json(*pair, matched.data().program, *r, o);
  auto out = result_of(j, *r, checker::render_run_text(*pair, *r, o));
  if (r->mismatch) {
    Violation v;
    api::detail::mismatch_fields(j.at("mismatch"), v);
    v.description = checker::describe_mismatch(pair->spec_code(), pair->impl_code(), *r->mismatch);
    out.mismatch = std::move(v);
  }
  for (const auto& overflow : r->overflows)
    out.overflows.push_back(checker::describe_overflow(pair->impl_code(), overflow));
  if (options.svg) out.svg = latency::run_svg(pair->lockstep(), *r);
  return out;
}

}  // namespace syncbisim
