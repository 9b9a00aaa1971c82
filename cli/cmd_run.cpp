// syncbisim run SPEC [IMPL] --seed N [--json]: one execution under a seeded random scheduler.
#include <iostream>
#include <memory>

#include "checker/run_report.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "cli/pictures.h"
#include "cli/width_options.h"
#include "formats/json_text.h"

namespace syncbisim::cli {

namespace {

struct RunArgs {
  std::string spec, impl, svg, from;
  std::uint64_t seed = 1;
  std::size_t max_steps = 100000;
  bool json = false;
  bool visible_only = false;
  model::ValueWidths widths;  // --register-bits, --semaphore-bits
};

int run_run(const RunArgs& a) {
  int status = 0;
  // The run and its report are the library's (checker/run_report.h, as the public API's run()).
  const checker::RunOptions o{a.seed, a.max_steps, a.visible_only};
  if (a.impl.empty()) {
    auto spec = load_spec(a.spec, status);
    if (!spec) return status;
    const auto code = semantics::compile(spec->program, spec->index);
    const auto r = checker::run_once(code, o);
    if (a.json)
      std::cout << formats::json_text(checker::render_run_json(code, r, o));
    else std::cout << checker::render_run_text(code, r, o);
    return checker::run_exit_status(r.outcome);
  }
  std::optional<checker::TraceSteps> from;
  if (!a.from.empty()) {
    from = load_trace(a.from, 0, status);
    if (!from) return status;
  }
  auto pair = load_pair(a.spec, a.impl, status,
                        checker::PairOptions{checker::run_semantics(from ? &*from : nullptr, a.widths)});
  if (!pair) return status;
  auto r = checker::run_once(*pair->checked, o, from ? &*from : nullptr);
  if (!r) {  // --from: the trace does not fit the pair
    auto d = r.error();
    d.file = a.from;
    return input_error(d);
  }
  if (!a.svg.empty())
    if (const int s = write_run_svg(a.svg, pair->lockstep(), *r); s != 0) return s;
  if (a.json)
    std::cout << formats::json_text(checker::render_run_json(*pair->checked, pair->spec.program, *r, o));
  else std::cout << checker::render_run_text(*pair->checked, *r, o);
  return checker::run_exit_status(r->outcome);
}

}  // namespace

void add_run(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, args] = add_command<RunArgs>(
      app, ctx, name, "One execution under a seeded random scheduler; with IMPL, both in lock step", run_run);
  add_spec_argument(cmd, args->spec);
  cmd->add_option("IMPL", args->impl, "impl program; runs both in lock step and stops at the first mismatch")
      ->check(CLI::ExistingFile);
  cmd->add_option("--seed", args->seed, "scheduler seed")->capture_default_str();
  cmd->add_option("--max-steps", args->max_steps, "stop after this many steps (exit 3)")->capture_default_str();
  cmd->add_flag("--json", args->json, "print the event list as JSON");
  cmd->add_flag("--visible-only", args->visible_only, "show issue, retire and choices only");
  cmd->add_option("--from", args->from, "with IMPL: take the steps of this trace first, then go on at random")
      ->check(CLI::ExistingFile);
  cmd->add_option("--svg", args->svg, "with IMPL: draw the run as an SVG timeline into this file");
  add_width_options(cmd, args->widths);
}

}  // namespace syncbisim::cli
