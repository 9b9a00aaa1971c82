// syncbisim replay SPEC IMPL TRACE.json [--violation K] [--svg FILE] [--json] [--register-bits N]
// [--semaphore-bits N]: a trace that check, prove, fuzz or shrink wrote, step by step with what
// each step changed on both sides, ending with the violation it leads to (docs/checker.md
// "Replay"); an overflow at the widths it was found at. Exit 1 when a violation is at its
// end, 0 when there is none (the pair no longer shows it), 2 when the trace does not fit.
#include <iostream>
#include <memory>

#include "checker/replay_report.h"
#include "checker/trace_replay.h"
#include "checker/trace_view.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "cli/pictures.h"
#include "cli/width_options.h"
#include "formats/json_text.h"

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
  // The JSON, the text and the exit status are the library's (checker/replay_report.h), which the
  // public API's replay() gives too.
  if (a.json)
    std::cout << formats::json_text(checker::replay_json(*pair->checked, r));
  else std::cout << checker::render_replay(*pair->checked, r);
  if (!r.misfit.empty()) return checker::replay_status(r);
  if (!a.svg.empty() && !r.violations.empty()) {
    checker::CheckResult as_found;
    as_found.violations = r.violations;
    if (const int s = write_counterexample_svg(a.svg, pair->lockstep(), as_found); s != 0) return s;
  }
  return checker::replay_status(r);
}

}  // namespace

void add_replay(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] = add_command<ReplayArgs>(
      app, ctx, name, "Replay a trace written by check, prove, fuzz or shrink, step by step", replay);
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
