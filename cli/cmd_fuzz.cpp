// syncbisim fuzz (--strategy S | --allocator CMD) --runs N --seed X [--jobs J] [--out DIR] ...: a
// campaign against an allocator (docs/fuzzing.md). Every failure is minimized (same kind, same
// instruction) and written to DIR as soon as it is final, with its files and the commands that
// reproduce it; Ctrl-C stops the campaign with what it found.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "cli/interrupt.h"
#include "cli/number_options.h"
#include "cli/progress.h"
#include "cli/terminal_text.h"
#include "formats/json_text.h"
#include "fuzz/campaign.h"
#include "fuzz/campaign_report.h"
#include "fuzz/command_allocator.h"
#include "fuzz/failure_files.h"
#include "parallel/run_indexed.h"

namespace syncbisim::cli {

namespace {

struct FuzzArgs {
  std::string strategy, allocator, shard = "0/1", out, specs = "mixed";
  std::uint64_t runs = 100, seed = 1, start = 0, max_states = 20000, max_steps = 2000, max_failures = 0;
  int max_size = 100;
  unsigned jobs = 1;
  std::size_t allocator_max_output_mib = 16;
  double max_seconds = 30, allocator_timeout = 10;
  bool json = false, no_shrink = false, declined_is_failure = false, quiet = false, stats = false;
};

bool parse_shard(const std::string& s, std::uint64_t& i, std::uint64_t& k) {
  const auto slash = s.find('/');
  if (slash == std::string::npos) return false;
  try {
    std::size_t n1 = 0, n2 = 0;
    i = std::stoull(s.substr(0, slash), &n1);
    k = std::stoull(s.substr(slash + 1), &n2);
    return n1 == slash && n2 == s.size() - slash - 1 && k > 0 && i < k;
  } catch (const std::exception&) {
    return false;
  }
}

// The fuzz command that replays run r alone.
std::string replay_command(const FuzzArgs& a, std::uint64_t r) {
  std::ostringstream c;
  c << "syncbisim fuzz ";
  if (!a.allocator.empty()) {
    c << "--allocator " << fuzz::shell_quote(a.allocator);
    if (a.allocator_timeout != 10) c << " --allocator-timeout " << a.allocator_timeout;
  } else {
    c << "--strategy " << a.strategy;
  }
  if (a.declined_is_failure) c << " --declined-is-failure";
  c << " --seed " << a.seed << " --start " << r << " --runs 1 --specs " << a.specs << " --max-size " << a.max_size
    << " --max-states " << a.max_states;
  return c.str();
}

int run_fuzz(FuzzArgs a) {
  if (!a.strategy.empty() && !a.allocator.empty()) {
    std::cerr << "syncbisim fuzz: give --strategy or --allocator, not both\n";
    return 2;
  }
  if (a.strategy.empty() && a.allocator.empty()) a.strategy = "auto";
  std::optional<allocator::Strategy> strategy;
  if (!a.strategy.empty()) {
    strategy = allocator::parse_strategy(a.strategy);
    if (!strategy) {
      std::cerr << "syncbisim fuzz: unknown strategy '" << a.strategy << "' (" << allocator::strategy_names() << ")\n";
      return 2;
    }
  }
  const auto mix = fuzz::parse_spec_mix(a.specs);
  if (!mix) {
    std::cerr << "syncbisim fuzz: unknown --specs '" << a.specs << "' (allocatable, arbitrary, mixed, degenerate)\n";
    return 2;
  }
  fuzz::CampaignOptions o;
  if (!parse_shard(a.shard, o.shard_index, o.shard_count)) {
    std::cerr << "syncbisim fuzz: --shard wants I/K with 0 <= I < K, got '" << a.shard << "'\n";
    return 2;
  }
  if (!a.out.empty())
    if (const int status = create_out_directory(a.out)) return status;
  o.seed = a.seed;
  o.start = a.start;
  o.runs = a.runs;
  o.specs = *mix;
  o.max_size = a.max_size;
  // An external allocator claims exactness like the barrier-free strategies: over-synchronization
  // on allocatable specs counts (docs/fuzzing.md "What counts").
  o.exact = !strategy || *strategy != allocator::Strategy::Barrier;
  o.declined_is_failure = a.declined_is_failure;
  o.max_states = a.max_states;
  o.max_failures = a.max_failures;
  o.minimize = !a.no_shrink;
  o.shrink.max_steps = a.max_steps;
  o.shrink.max_seconds = a.max_seconds;
  o.jobs = a.jobs;

  const InterruptWatch interrupt;  // before any thread starts: they inherit its signal mask
  o.stop = &interrupt.flag();
  fuzz::AllocateFn allocate;
  if (strategy) {
    allocate = fuzz::allocate_with(*strategy);
  } else {
    fuzz::CommandOptions c;
    c.command = a.allocator;
    c.timeout_seconds = a.allocator_timeout;
    c.max_output_bytes = a.allocator_max_output_mib << 20;
    c.stop = o.stop;
    allocate = fuzz::command_allocator(c);
  }

  fuzz::ReportContext report;
  report.allocator = strategy ? a.strategy : "command: " + a.allocator;
  report.replay = [&a](std::uint64_t r) { return replay_command(a, r); };
  int write_status = 0;
  if (!a.out.empty())
    o.on_failure = [&](const fuzz::RunFailure& f) {
      fuzz::FailureFileOptions fo{a.out, replay_command(a, f.run), a.allocator};
      auto w = fuzz::write_failure_files(f, fo);
      if (w) report.written[f.run] = *w;
      else if (write_status == 0) write_status = input_error(w.error());
    };
  ProgressLine progress(a.quiet);
  std::uint64_t failures_seen = 0;
  const auto chained = o.on_failure;
  o.on_failure = [&](const fuzz::RunFailure& f) {
    ++failures_seen;
    if (chained) chained(f);
  };
  const auto t0 = std::chrono::steady_clock::now();
  o.progress = [&](std::uint64_t done, std::uint64_t total) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char line[160];
    std::snprintf(line, sizeof line, "fuzz: run %llu/%llu, %llu failures, %.1f runs/s, %.0f s",
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                  static_cast<unsigned long long>(failures_seen), s > 0 ? done / s : 0.0, s);
    progress.show(line);
  };
  const auto r = fuzz::run_campaign(allocate, o);
  progress.finish();
  if (const auto asked = parallel::workers(fuzz::campaign_runs(o).count, o.jobs); r.threads < asked)
    std::cerr << "syncbisim: note: ran on " << r.threads << " threads: the system refused " << asked - r.threads
              << " of the " << asked << " --jobs asked for\n";
  if (write_status != 0) return write_status;

  if (a.json) std::cout << formats::json_text(fuzz::campaign_json(r, o, report));
  else std::cout << printable_lines(fuzz::campaign_text(r, report, a.stats));
  // Stopped from outside: the summary so far, failures included, and inconclusive (docs/fuzzing.md).
  if (r.interrupted) return 3;
  return r.failures > 0 ? 1 : 0;
}

}  // namespace

void add_fuzz(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] = add_command<FuzzArgs>(app, ctx, name,
                                        "Fuzz an allocator: generate specs, allocate, check, minimize failures", run_fuzz);
  cmd->add_option(
      "--strategy", a->strategy,
      "one of the tool's strategies: barrier | per-instruction | per-loop | per-engine | auto (default) | mixed | expert");
  cmd->add_option("--allocator", a->allocator,
                  "your allocator as a command: run under /bin/sh -c, spec JSON on stdin (path in $SYNCBISIM_SPEC), "
                  "impl (JSON or text) on stdout, exit 0; another exit status declines the spec");
  cmd->add_option("--allocator-timeout", a->allocator_timeout,
                  "seconds the command may take per spec; then its process group is killed (a timeout failure)")
      ->check(seconds())
      ->capture_default_str();
  cmd->add_option("--allocator-max-output", a->allocator_max_output_mib,
                  "MiB the command may write on stdout or stderr per spec; more kills its process group (a fault)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4096}))
      ->capture_default_str();
  cmd->add_flag("--declined-is-failure", a->declined_is_failure, "count a refusal (non-zero exit) as a failure");
  cmd->add_option("--runs", a->runs, "number of runs (before sharding)")->capture_default_str();
  cmd->add_option("--seed", a->seed, "campaign seed; run r uses a seed derived from (seed, r)")->capture_default_str();
  cmd->add_option("--start", a->start, "index of the first run (replay run R alone: --start R --runs 1)")
      ->capture_default_str();
  cmd->add_option("--shard", a->shard, "I/K: only the runs r with r % K == I")->capture_default_str();
  cmd->add_option("--jobs", a->jobs, "runs at once (the result is the same for any number)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--specs", a->specs, "allocatable | arbitrary | mixed | degenerate (no swarm, no liveness: for edge testing)")->capture_default_str();
  cmd->add_option("--max-size", a->max_size, "largest generator size (each run draws 1..max)")->capture_default_str();
  cmd->add_option("--max-states", a->max_states, "state limit per check (a run that hits it is inconclusive)")
      ->capture_default_str();
  cmd->add_option("--max-steps", a->max_steps, "shrinker: candidates per failure at most")->capture_default_str();
  cmd->add_option("--max-seconds", a->max_seconds, "shrinker: seconds per failure at most")
      ->check(seconds())
      ->capture_default_str();
  cmd->add_option("--max-failures", a->max_failures, "stop after this many failures (0: run them all)")
      ->capture_default_str();
  cmd->add_flag("--no-shrink", a->no_shrink, "write failures as found");
  add_json_flag(cmd, a->json);
  cmd->add_flag("--stats", a->stats,
                "print where the specs' dependencies went: by case, offset, depth, live share (the JSON always has "
                "them)");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress lines on stderr");
  cmd->add_option("--out", a->out, "write each failure's files here as soon as it is final (docs/fuzzing.md)");
}

}  // namespace syncbisim::cli
