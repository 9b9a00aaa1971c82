// syncbisim prove SPEC IMPL: the Z3 prover (docs/prover.md). Verdict first, one word; then one
// line per consumer (safe and exact), and under every refuted property its witness: both sides'
// numbers and the head and tail of the trace (--trace-out writes every step).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/footprint_report.h"
#include "cli/html_report.h"
#include "cli/inputs.h"
#include "cli/width_options.h"
#include "formats/json_text.h"
#include "parallel/cores.h"
#include "prover/prove.h"
#include "prover/report.h"

namespace syncbisim::cli {

namespace {

struct ProveArgs {
  std::string spec, impl, trace_out, html;
  bool json = false;
  bool no_replay = false;
  unsigned timeout_ms = 10000;
  std::uint64_t max_witness_steps = prover::ProveOptions{}.max_witness_steps;
  model::ValueWidths widths;
  unsigned jobs = 0;  // 0: every core
};

int run_prove(const ProveArgs& a) {
  int status = 0;
  auto pair = load_pair(a.spec, a.impl, status);
  if (!pair) return status;
  // A spec with footprints: its written graph is judged first (docs/footprints.md). A race is
  // the verdict; a graph not shown to order every conflict for every trip count makes a proof
  // relative to it unknown, never proved.
  const auto judged = judge_footprints(pair->spec);
  if (judged && judged->comparison.verdict == footprint::GraphVerdict::Race) {
    if (!a.html.empty())
      if (const int s = write_race_html(a.html, "prove", {a.spec, a.impl, &*judged}, *pair); s != 0) return s;
    return print_race(judged->comparison, a.json);
  }
  prover::ProveOptions o;
  o.replay = !a.no_replay;
  o.z3_timeout_ms = a.timeout_ms;
  o.max_witness_steps = a.max_witness_steps;
  o.widths = a.widths;
  o.jobs = parallel::given_or_every_core(a.jobs);
  const auto r = prover::prove(pair->spec.program, pair->spec.index, pair->impl.program, pair->impl.index, o);
  if (!a.trace_out.empty()) {
    if (auto s = formats::write_file_atomically(a.trace_out, prover::traces_json(r)); !s) {
      auto d = s.error();
      d.file = a.trace_out;
      return input_error(d);
    }
  }
  if (!a.html.empty())
    if (const int s = write_prove_html(a.html, {a.spec, a.impl, judged ? &*judged : nullptr}, *pair, r); s != 0)
      return s;
  const bool graph_unsure = judged && judged->comparison.verdict != footprint::GraphVerdict::Ordered;
  if (a.json) {
    auto j = prover::render_json(r);
    if (judged) j["footprints"] = footprint::comparison_json(judged->comparison);
    if (graph_unsure && r.verdict == prover::Answer::Proved) j["verdict"] = "unknown";
    std::cout << formats::json_text(j);
  } else {
    if (graph_unsure && r.verdict == prover::Answer::Proved)
      std::cout << "unknown: the waits are proved against the written graph, but the footprints' check of that graph is "
                   "inconclusive (below)\n";
    std::cout << prover::render_text(r);
    if (judged) std::cout << "footprints: " << footprint::comparison_text(judged->comparison);
  }
  if (graph_unsure && r.verdict == prover::Answer::Proved) return 3;
  return prover::exit_status(r.verdict);
}

}  // namespace

void add_prove(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] = add_command<ProveArgs>(
      app, ctx, name, "Prove with Z3, for every trip count, that each consumer's waits are safe and exact", run_prove);
  cmd->add_option("SPEC", a->spec, "spec program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_option("IMPL", a->impl, "impl program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", a->json, "print one JSON document");
  cmd->add_flag("--no-replay", a->no_replay, "do not look for concrete executions (counterexamples stay unknown)");
  cmd->add_option("--timeout-ms", a->timeout_ms, "Z3 time limit per query")->capture_default_str();
  cmd->add_option("--max-witness-steps", a->max_witness_steps,
                  "keep a witness's trace up to this many steps (longer: refuted all the same, trace not built)")
      ->capture_default_str();
  cmd->add_option("--jobs", a->jobs, "consumers proved at once, on that many threads (default: every core; the same output for any number)");
  cmd->add_option("--trace-out", a->trace_out, "write every witness's whole trace as JSON to this file");
  cmd->add_option("--html", a->html,
                  "write a self-contained page to look at into this file: the verdict, both programs, each consumer's "
                  "answers, each witness to step through with both sides' numbers, its timeline (docs/report.md)");
  // The hardware's widths (model/value_width.h; docs/prover.md "Overflow"), as check takes them.
  add_width_options(cmd, a->widths);
}

}  // namespace syncbisim::cli
