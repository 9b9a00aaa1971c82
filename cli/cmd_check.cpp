// syncbisim check SPEC IMPL: the differential bisimulation check (docs/semantics.md §5).
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>
#include <vector>

#include "checker/coverage.h"
#include "checker/explorer.h"
#include "cli/all_trips.h"
#include "cli/check_batch.h"
#include "cli/check_report.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/deadline.h"
#include "cli/footprint_report.h"
#include "cli/html_report.h"
#include "cli/inputs.h"
#include "cli/number_options.h"
#include "cli/pictures.h"
#include "cli/progress.h"
#include "cli/state_store_option.h"
#include "cli/width_options.h"
#include "formats/json_text.h"
#include "parallel/cores.h"

namespace syncbisim::cli {

namespace {

struct CheckArgs {
  std::string spec, impl, trace_out, svg, html;
  std::vector<std::string> batch;
  unsigned jobs = 1;
  bool json = false;
  bool no_reduction = false;
  bool quiet = false;
  bool all_trips = false;
  bool coverage = false;
  std::uint64_t walks = 0, seed = 1, depth = 100000, max_states = 0, max_memory = 0;
  unsigned threads = 0;              // 0: every core (one per pair with --batch)
  checker::StateStore state_store = checker::StateStore::Flat;
  double max_seconds = 0;
  std::uint32_t max_trip = 0;
  model::ValueWidths widths;  // --register-bits, --semaphore-bits
};

// Commit fusion unless --no-reduction (which keeps commits as steps of their own, besides turning
// off the eager steps), and the widths.
semantics::Options semantics_options(const CheckArgs& a) {
  semantics::Options o;
  o.fuse_commit = !a.no_reduction;
  o.widths = a.widths;
  return o;
}

// "check: 1200000 states, 1.3 M/s, depth 57, 74 MiB, 4 s (limit in about 3 s)": what a person
// watching a long search, or reading a CI log, wants to know.
std::string progress_line(const checker::Progress& p, const CheckArgs& a) {
  char line[200];
  const double rate = p.seconds > 0 ? p.states / p.seconds : 0.0;
  std::string eta;
  if (a.max_states > 0 && rate > 0 && p.states < a.max_states)
    eta = ", max-states in about " + std::to_string(static_cast<long long>((a.max_states - p.states) / rate)) + " s";
  if (a.max_seconds > 0 && p.seconds < a.max_seconds)
    eta += ", max-seconds in " + std::to_string(static_cast<long long>(a.max_seconds - p.seconds)) + " s";
  std::snprintf(line, sizeof line, "check: %llu states, %.2f M states/s, depth %llu, frontier %llu, %.1f MiB, %.0f s%s",
                static_cast<unsigned long long>(p.states), rate / 1e6, static_cast<unsigned long long>(p.depth),
                static_cast<unsigned long long>(p.frontier), p.bytes / 1048576.0, p.seconds, eta.c_str());
  return line;
}

checker::CheckOptions check_options(const CheckArgs& a) {
  checker::CheckOptions o;
  o.reduction = !a.no_reduction;
  o.max_states = a.max_states;
  o.max_seconds = a.max_seconds;
  o.max_memory = a.max_memory;
  o.state_store = a.state_store;
  // --batch already runs --jobs pairs at once: each on one thread unless --threads says more.
  o.threads = !a.batch.empty() && a.threads == 0 ? 1 : parallel::given_or_every_core(a.threads);
  o.walks = a.walks;
  o.seed = a.seed;
  o.depth = a.depth;
  return o;
}

int check_batch(const CheckArgs& a, CommandDeadline& deadline) {
  if (!a.spec.empty() || !a.impl.empty()) {
    std::cerr << "syncbisim check: --batch takes the pairs from its manifest, not SPEC IMPL\n";
    return 2;
  }
  std::vector<BatchEntry> entries;
  for (const auto& source : a.batch) {
    auto some = read_batch(source);
    if (!some) return input_error(some.error());
    entries.insert(entries.end(), some->begin(), some->end());
  }
  BatchOptions o;
  o.check = check_options(a);
  o.pair = checker::PairOptions{semantics_options(a), a.max_trip};
  o.jobs = a.jobs;
  if (deadline.limited()) o.seconds_left = [&deadline] { return deadline.left(); };
  deadline.phase("checking the pairs");
  const auto t0 = std::chrono::steady_clock::now();
  const auto results = run_batch(entries, o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) std::cout << formats::json_text(batch_json(results, seconds));
  else std::cout << batch_text(results, seconds);
  return batch_status(results);
}

int run_check(const CheckArgs& a) {
  // --max-seconds bounds the whole command, from the process's start (cli/deadline.h).
  CommandDeadline deadline(a.max_seconds, "check");
  if (!a.html.empty() && (!a.batch.empty() || a.all_trips)) {
    std::cerr << "syncbisim check: --html is for one pair searched by the explorer, not with --batch or --all-trips "
                 "(prove --html covers every trip count)\n";
    return 2;
  }
  if (!a.batch.empty()) return check_batch(a, deadline);
  if (a.spec.empty() || a.impl.empty()) {
    std::cerr << "syncbisim check: give SPEC and IMPL (or --batch MANIFEST)\n";
    return 2;
  }
  if (a.all_trips) {
    // A spec with footprints: its written graph first (docs/footprints.md), as below.
    int st = 0;
    auto spec = load_spec(a.spec, st);
    if (!spec) return st;
    const auto judged = judge_footprints(*spec);
    if (judged && judged->comparison.verdict == footprint::GraphVerdict::Race) return print_race(judged->comparison, a.json);
    const bool graph_unsure = judged && judged->comparison.verdict != footprint::GraphVerdict::Ordered;
    if (graph_unsure) std::cerr << "note: footprints: " << footprint::comparison_text(judged->comparison);
    const int status = check_all_trips({a.spec, a.impl, a.trace_out, a.json, a.max_trip, a.max_states, &deadline,
                                        a.widths, parallel::given_or_every_core(a.threads)});
    // A verdict for all trips relative to a graph not shown to order every conflict for all trips
    // is no verdict for the memory: inconclusive (exit 3), never a pass.
    if (graph_unsure && status == 0) {
      std::cerr << "inconclusive: bisimilar against the written graph, but the footprints' check of that graph is "
                   "inconclusive (above)\n";
      return 3;
    }
    return status;
  }
  int status = 0;
  deadline.phase("reading, unrolling and indexing the inputs");
  auto pair = load_pair(a.spec, a.impl, status, checker::PairOptions{semantics_options(a), a.max_trip});
  if (!pair) return status;
  deadline.phase("judging the footprints");
  // A spec with footprints: the written graph is judged against them first (docs/footprints.md);
  // a conflict it leaves unordered is a race, the verdict, whatever the impl does against it.
  const auto judged = judge_footprints(pair->spec);
  if (judged && judged->comparison.verdict == footprint::GraphVerdict::Race) {
    if (!a.html.empty())
      if (const int s = write_race_html(a.html, "check", {a.spec, a.impl, &*judged}, *pair); s != 0) return s;
    return print_race(judged->comparison, a.json);
  }
  // Findings that change no verdict go to stderr: a graph not shown ordered for every trip count
  // (this check is at bounded trips anyway), unjustified, over-synchronizing, implied dependencies.
  if (judged && !a.json) {
    const auto& c = judged->comparison;
    if (c.verdict != footprint::GraphVerdict::Ordered || !c.unjustified.empty() || !c.over_synchronized.empty() ||
        !c.implied.empty())
      std::cerr << "note: footprints: " << footprint::comparison_text(c);
  }
  const auto& both = pair->lockstep();
  auto o = check_options(a);
  ProgressLine progress(a.quiet);
  if (progress.enabled()) o.progress = [&](const checker::Progress& p) { progress.show(progress_line(p, a)); };
  std::optional<checker::Coverage> coverage;
  if (a.coverage) {
    coverage.emplace(both);
    o.coverage = &*coverage;
  }
  if (deadline.limited()) o.max_seconds = deadline.left();
  deadline.phase("exploring");
  auto r = checker::check(*pair->checked, o);
  r.limit = deadline.as_given(r.limit);
  progress.finish();
  deadline.phase("reporting");
  if (!a.svg.empty())
    if (const int s = write_counterexample_svg(a.svg, both, r); s != 0) return s;
  if (!a.html.empty())
    if (const int s = write_check_html(a.html, {a.spec, a.impl, judged ? &*judged : nullptr}, *pair, r,
                                       {coverage ? &*coverage : nullptr, &o, deadline.limited() ? deadline.left() : 0});
        s != 0)
      return s;
  const int verdict_status =
      print_check_result(*pair, r, CheckReportOptions{a.trace_out, a.json, coverage ? &*coverage : nullptr, {}});
  // The impl leaves a dependency unmet that a conflict on memory justifies: say which conflict
  // (docs/footprints.md): the under-synchronization is a race of the impl.
  if (judged && !a.json && r.verdict == checker::Verdict::UnderSynchronized) {
    std::set<std::string> said;
    for (const auto& v : r.violations)
      for (const auto& c : v.mismatch.spec_checks) {
        if (c.satisfied()) continue;
        const auto& d = pair->spec.program.deps[pair->spec_code().deps[c.dep].index];
        for (const auto& x : judged->derivation.deps)
          if (x.dep.producer == d.producer && x.dep.consumer == d.consumer && !x.why.empty() &&
              said.insert(d.producer + " -> " + d.consumer).second)
            std::cout << "race in the impl: the unmet " << d.producer << " -> " << d.consumer << " orders "
                      << x.why.front().to_string(d.producer, d.consumer) << " (iterations from 0)\n";
      }
  }
  return verdict_status;
}

}  // namespace

void add_check(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] = add_command<CheckArgs>(
      app, ctx, name, "Check an impl against its spec: bisimilar, over- or under-synchronized", run_check);
  cmd->add_option("SPEC", a->spec, "spec program (JSON or text)")->check(CLI::ExistingFile);
  cmd->add_option("IMPL", a->impl, "impl program (JSON or text)")->check(CLI::ExistingFile);
  cmd->add_option(
         "--batch", a->batch,
         "check many pairs: a manifest (lines SPEC IMPL [expected verdict]) or a directory of impls (repeatable)")
      ->check(CLI::ExistingPath);
  cmd->add_option("--jobs", a->jobs, "with --batch: pairs checked at once")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1024u));
  cmd->add_flag("--json", a->json, "print one JSON document");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress lines on stderr (else: a line every 10 s in a log)");
  cmd->add_option("--random", a->walks, "random mode: this many seeded walks instead of the exhaustive search");
  cmd->add_option("--seed", a->seed, "seed of the random walks")->capture_default_str();
  cmd->add_option("--depth", a->depth, "steps per random walk at most")->capture_default_str();
  cmd->add_option("--max-states", a->max_states, "stop after this many states (inconclusive, exit 3)");
  cmd->add_option("--max-seconds", a->max_seconds, "stop this many seconds after the process starts, whatever it is doing (inconclusive, exit 3)")
      ->check(seconds());
  cmd->add_option("--max-memory", a->max_memory,
                  "stop when the state store passes SIZE bytes (512M, 4G; inconclusive, exit 3)")
      ->transform(CLI::AsSizeValue(false));
  cmd->add_option("--threads", a->threads,
                  "threads of the exhaustive search, same results for any number (default: every core; with "
                  "--batch: 1; --coverage runs on one)")
      ->check(CLI::Range(1U, 1024U));
  add_state_store_option(cmd, a->state_store,
                         "fewer bytes a state: a third of flat's on one thread, three quarters on several");
  cmd->add_option("--max-trip", a->max_trip, "cap every dynamic range trip at K (inconclusive unless a violation)");
  add_width_options(cmd, a->widths);
  cmd->add_flag("--no-reduction", a->no_reduction, "explore every interleaving: no eager steps, commits kept");
  cmd->add_option("--trace-out", a->trace_out, "write every violation's full trace as JSON to this file");
  cmd->add_option("--svg", a->svg, "draw the counterexample as an SVG timeline into this file");
  cmd->add_option("--html", a->html,
                  "write a self-contained page to look at into this file: the verdict, both programs, each trace to "
                  "step through with both sides' numbers, its timeline, the coverage, the footprints (docs/report.md)");
  cmd->add_flag("--coverage", a->coverage,
                "list each dependency with whether it ever held its consumer back, and each wait with whether it "
                "ever blocked, over the explored states");
  cmd->add_flag("--all-trips", a->all_trips,
                "one verdict for every trip count: the prover on every consumer plus the explorer at trips capped by "
                "--max-trip (default 3)");
}

}  // namespace syncbisim::cli
