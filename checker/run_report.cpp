#include "checker/run_report.h"

#include "checker/trace_view.h"
#include "semantics/spec_system.h"

namespace syncbisim::checker {

namespace {

std::string stuck_line(const semantics::CompiledProgram& p, const semantics::RunResult& r) {
  if (r.stuck.empty()) return "";
  std::string out = "stuck engines:";
  for (auto e : r.stuck) out += " " + p.engines[e];
  return out + "\n";
}

}  // namespace

semantics::Options run_semantics(const TraceSteps* from, const model::ValueWidths& widths) {
  return semantics::Options{!from || !trace_has_commits(*from), widths};
}

semantics::RunResult run_once(const semantics::CompiledProgram& spec, const RunOptions& options) {
  const semantics::SpecSystem sys(spec);
  return semantics::run_spec(sys, options.seed, options.max_steps);
}

model::Result<semantics::RunResult> run_once(const ProgramPair& pair, const RunOptions& options,
                                             const TraceSteps* from) {
  std::vector<semantics::Step> prefix;
  if (from) {  // run --from: the trace's steps first (they must fit), then at random from its end
    const auto replayed = replay_trace(pair, *from);
    if (!replayed.misfit.empty())
      return model::make_error("", "trace-misfit", "the trace does not fit the pair: " + replayed.misfit);
    prefix = replayed.visible;
  }
  return semantics::run_lockstep(pair.lockstep(), options.seed, options.max_steps, prefix);
}

std::string render_run_text(const semantics::CompiledProgram& spec, const semantics::RunResult& r,
                            const RunOptions& options) {
  const TraceOptions view{!options.visible_only};
  return std::string(semantics::to_string(r.outcome)) + "\n" + render_columns(spec, r.events, view) +
         stuck_line(spec, r);
}

nlohmann::json render_run_json(const semantics::CompiledProgram& spec, const semantics::RunResult& r,
                               const RunOptions& options) {
  const TraceOptions view{!options.visible_only};
  nlohmann::json j{{"syncbisim", "run/1"},
                   {"outcome", semantics::to_string(r.outcome)},
                   {"seed", options.seed},
                   {"events", events_to_json(spec, r.events, view)}};
  for (auto e : r.stuck) j["stuck"].push_back(spec.engines[e]);
  return j;
}

std::string render_run_text(const ProgramPair& pair, const semantics::RunResult& r, const RunOptions& options) {
  const TraceOptions view{!options.visible_only};
  std::string out =
      std::string(semantics::to_string(r.outcome)) + "\n" + render_columns(pair.impl_code(), r.events, view);
  if (r.mismatch) out += describe_mismatch(pair.spec_code(), pair.impl_code(), *r.mismatch) + "\n";
  for (const auto& o : r.overflows) out += describe_overflow(pair.impl_code(), o) + "\n";
  if (!r.limit.empty()) out += "limit: " + r.limit + "\n";
  return out + stuck_line(pair.impl_code(), r);
}

nlohmann::json render_run_json(const ProgramPair& pair, const model::Program& spec, const semantics::RunResult& r,
                               const RunOptions& options) {
  const TraceOptions view{!options.visible_only};
  nlohmann::json j{{"syncbisim", "run/1"},
                   {"outcome", semantics::to_string(r.outcome)},
                   {"seed", options.seed},
                   {"events", events_to_json(pair.impl_code(), r.events, view)}};
  if (r.mismatch) j["mismatch"] = mismatch_to_json(pair.spec_code(), pair.impl_code(), spec, *r.mismatch);
  for (auto e : r.stuck) j["stuck"].push_back(pair.impl_code().engines[e]);
  for (const auto& o : r.overflows) j["overflows"].push_back(overflow_json(pair.impl_code(), o));
  if (!r.limit.empty()) j["limit"] = r.limit;
  return j;
}

int run_exit_status(semantics::RunOutcome o) {
  switch (o) {
    case semantics::RunOutcome::Finished: return 0;
    case semantics::RunOutcome::StepLimit: return 3;
    default: return 1;
  }
}

}  // namespace syncbisim::checker
