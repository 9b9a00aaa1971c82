// syncbisim replay SPEC IMPL TRACE.json [--violation K] [--svg FILE] [--json] [--register-bits N]
// [--semaphore-bits N]: a trace that check, prove, fuzz or shrink wrote, step by step with what
// each step changed on both sides, ending with the violation it leads to (docs/checker.md
// "Replay"); an overflow at the widths it was found at. Exit 1 when a violation is at its
// end, 0 when there is none (the pair no longer shows it), 2 when the trace does not fit.
#include <iostream>
#include <memory>

#include "checker/trace_replay.h"
#include "checker/trace_view.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "cli/pictures.h"
#include "cli/width_options.h"

namespace syncbisim::cli {

namespace {

struct ReplayArgs {
  std::string spec, impl, trace, svg;
  std::size_t violation = 0;
  bool json = false;
  model::ValueWidths widths;  // --register-bits, --semaphore-bits: those the trace was found at
};

int replay(const ReplayArgs& a) {
  int status = 0;
  const auto trace = load_trace(a.trace, a.violation, status);
  if (!trace) return status;
  // A trace with commit steps comes from a search that kept them (check --no-reduction). An
  // overflow shows only at the widths it was found at (docs/semantics.md "Widths").
  semantics::Options so;
  so.fuse_commit = !checker::trace_has_commits(*trace);
  so.widths = a.widths;
  auto pair = load_pair(a.spec, a.impl, status, checker::PairOptions{so});
  if (!pair) return status;
  const auto r = checker::replay_trace(*pair->checked, *trace);
  if (a.json) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : r.steps) {
      auto j = checker::step_to_json(pair->impl_code(), s.step);
      j["number"] = s.number;
      if (!s.checks.empty()) j["checks"] = s.checks;
      j["changes"] = s.changes;
      steps.push_back(std::move(j));
    }
    nlohmann::json out{{"syncbisim", "replay/1"}, {"fits", r.misfit.empty()}, {"steps", steps}};
    if (!r.misfit.empty()) out["misfit"] = r.misfit;
    out["violations"] = nlohmann::json::array();
    for (const auto& v : r.violations) out["violations"].push_back(checker::to_string(v.kind));
    if (r.expected) out["reproduced"] = r.expected_shown;
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << checker::render_replay(*pair->checked, r);
  }
  if (!r.misfit.empty()) return 2;
  if (!a.svg.empty() && !r.violations.empty()) {
    checker::CheckResult as_found;
    as_found.violations = r.violations;
    if (const int s = write_counterexample_svg(a.svg, pair->lockstep(), as_found); s != 0) return s;
  }
  return r.violations.empty() ? 0 : 1;
}

}  // namespace

void add_replay(CLI::App& app, Context& ctx) {
  auto [cmd, a] = add_command<ReplayArgs>(
      app, ctx, "replay", "Replay a trace written by check, prove, fuzz or shrink, step by step", replay);
  add_pair_arguments(cmd, a->spec, a->impl);
  cmd->add_option("TRACE", a->trace, "the trace: check --json / --trace-out, prove --json, fuzz's f<r>.trace.json")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--violation", a->violation, "which violation's trace in the file (1-based; default the first)");
  cmd->add_option("--svg", a->svg, "draw the replayed counterexample as an SVG timeline into this file");
  add_json_flag(cmd, a->json);
  add_width_options(cmd, a->widths);
}

}  // namespace syncbisim::cli
