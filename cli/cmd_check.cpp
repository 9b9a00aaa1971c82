// syncbisim check SPEC IMPL: the differential bisimulation check (docs/semantics.md §5).
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "checker/explorer.h"
#include "checker/report.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/load.h"

namespace syncbisim::cli {

namespace {

struct CheckArgs {
  std::string spec, impl, trace_out;
  bool json = false;
  bool no_reduction = false;
  std::uint64_t walks = 0, seed = 1, depth = 100000, max_states = 0;
  double max_seconds = 0;
  std::uint32_t max_trip = 0;
};

void print_progress(const checker::Progress& p) {
  std::fprintf(stderr, "\r%llu states (%.0f/s), frontier %llu, memory %.1f MiB   ",
               static_cast<unsigned long long>(p.states), p.seconds > 0 ? p.states / p.seconds : 0.0,
               static_cast<unsigned long long>(p.frontier), p.bytes / 1048576.0);
  std::fflush(stderr);
}

int check(const CheckArgs& a) {
  int status = 0;
  // --no-reduction keeps commits as steps of their own, besides turning off the eager steps.
  auto pair = load_pair(a.spec, a.impl, status, checker::PairOptions{semantics::Options{!a.no_reduction}, a.max_trip});
  if (!pair) return status;
  const auto& both = pair->lockstep();
  checker::CheckOptions o;
  o.reduction = !a.no_reduction;
  o.max_states = a.max_states;
  o.max_seconds = a.max_seconds;
  o.walks = a.walks;
  o.seed = a.seed;
  o.depth = a.depth;
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (tty) o.progress = print_progress;
  const auto r = checker::check(*pair->checked, o);
  if (tty && r.seconds >= 2.0) std::fprintf(stderr, "\r%80s\r", "");
  if (!a.trace_out.empty()) {
    if (auto s = formats::write_file_atomically(a.trace_out, checker::traces_json(both, r).dump(2) + "\n"); !s) {
      auto d = s.error();
      d.file = a.trace_out;
      return input_error(d);
    }
  }
  if (a.json) std::cout << checker::render_json(both, pair->spec.program, r).dump(2) << "\n";
  else std::cout << checker::render_text(both, pair->spec.program, r);
  return checker::exit_status(r.verdict);
}

}  // namespace

void add_check(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "Check an impl against its spec: bisimilar, over- or under-synchronized");
  cmd->add_option("SPEC", a->spec, "spec program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_option("IMPL", a->impl, "impl program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", a->json, "print one JSON document");
  cmd->add_option("--random", a->walks, "random mode: this many seeded walks instead of the exhaustive search");
  cmd->add_option("--seed", a->seed, "seed of the random walks")->capture_default_str();
  cmd->add_option("--depth", a->depth, "steps per random walk at most")->capture_default_str();
  cmd->add_option("--max-states", a->max_states, "stop after this many states (inconclusive, exit 3)");
  cmd->add_option("--max-seconds", a->max_seconds, "stop after this many seconds (inconclusive, exit 3)");
  cmd->add_option("--max-trip", a->max_trip, "cap every dynamic range trip at K (inconclusive unless a violation)");
  cmd->add_flag("--no-reduction", a->no_reduction, "explore every interleaving: no eager steps, commits kept");
  cmd->add_option("--trace-out", a->trace_out, "write every violation's full trace as JSON to this file");
  cmd->callback([a, &ctx] { ctx.status = check(*a); });
}

}  // namespace syncbisim::cli
