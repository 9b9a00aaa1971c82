// syncbisim run SPEC [IMPL] --seed N [--json]: one execution under a seeded random scheduler.
#include <iostream>
#include <memory>

#include "checker/trace_view.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "cli/pictures.h"
#include "cli/width_options.h"
#include "semantics/random_run.h"

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

int status_of(semantics::RunOutcome o) {
  switch (o) {
    case semantics::RunOutcome::Finished: return 0;
    case semantics::RunOutcome::StepLimit: return 3;
    default: return 1;
  }
}

int run(const RunArgs& a) {
  int status = 0;
  checker::TraceOptions view{!a.visible_only};
  if (a.impl.empty()) {
    auto spec = load_spec(a.spec, status);
    if (!spec) return status;
    const auto code = semantics::compile(spec->program, spec->index);
    const semantics::SpecSystem sys(code);
    const auto r = semantics::run_spec(sys, a.seed, a.max_steps);
    if (a.json) {
      nlohmann::json j{{"syncbisim", "run/1"},
                       {"outcome", semantics::to_string(r.outcome)},
                       {"seed", a.seed},
                       {"events", checker::events_to_json(code, r.events, view)}};
      for (auto e : r.stuck) j["stuck"].push_back(code.engines[e]);
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << semantics::to_string(r.outcome) << "\n" << checker::render_columns(code, r.events, view);
      if (!r.stuck.empty()) {
        std::cout << "stuck engines:";
        for (auto e : r.stuck) std::cout << " " << code.engines[e];
        std::cout << "\n";
      }
    }
    return status_of(r.outcome);
  }
  std::optional<checker::TraceSteps> from;
  if (!a.from.empty()) {
    from = load_trace(a.from, 0, status);
    if (!from) return status;
  }
  auto pair =
      load_pair(a.spec, a.impl, status,
                checker::PairOptions{semantics::Options{!from || !checker::trace_has_commits(*from), a.widths}});
  if (!pair) return status;
  const auto& both = pair->lockstep();
  std::vector<semantics::Step> prefix;
  if (from) {  // --from: the trace's steps first (they must fit), then at random from its end
    const auto replayed = checker::replay_trace(*pair->checked, *from);
    if (!replayed.misfit.empty())
      return input_error(
          model::Diagnostic{a.from, "", "trace-misfit", "the trace does not fit the pair: " + replayed.misfit});
    prefix = replayed.visible;
  }
  const auto r = semantics::run_lockstep(both, a.seed, a.max_steps, prefix);
  if (!a.svg.empty())
    if (const int s = write_run_svg(a.svg, both, r); s != 0) return s;
  if (a.json) {
    nlohmann::json j{{"syncbisim", "run/1"},
                     {"outcome", semantics::to_string(r.outcome)},
                     {"seed", a.seed},
                     {"events", checker::events_to_json(pair->impl_code(), r.events, view)}};
    if (r.mismatch)
      j["mismatch"] = checker::mismatch_to_json(pair->spec_code(), pair->impl_code(), pair->spec.program, *r.mismatch);
    for (auto e : r.stuck) j["stuck"].push_back(pair->impl_code().engines[e]);
    for (const auto& o : r.overflows) j["overflows"].push_back(checker::overflow_json(pair->impl_code(), o));
    if (!r.limit.empty()) j["limit"] = r.limit;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << semantics::to_string(r.outcome) << "\n" << checker::render_columns(pair->impl_code(), r.events, view);
    if (r.mismatch) std::cout << checker::describe_mismatch(pair->spec_code(), pair->impl_code(), *r.mismatch) << "\n";
    for (const auto& o : r.overflows) std::cout << checker::describe_overflow(pair->impl_code(), o) << "\n";
    if (!r.limit.empty()) std::cout << "limit: " << r.limit << "\n";
    if (!r.stuck.empty()) {
      std::cout << "stuck engines:";
      for (auto e : r.stuck) std::cout << " " << pair->impl_code().engines[e];
      std::cout << "\n";
    }
  }
  return status_of(r.outcome);
}

}  // namespace

void add_run(CLI::App& app, Context& ctx) {
  auto [cmd, args] = add_command<RunArgs>(
      app, ctx, "run", "One execution under a seeded random scheduler; with IMPL, both in lock step", run);
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
