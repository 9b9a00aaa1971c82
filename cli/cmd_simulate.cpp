// syncbisim simulate SPEC IMPL [--trips L=N,...] [--costs FILE] [--json] [--svg FILE]: the impl on
// the timing model (docs/timing.md): makespan, per-engine time, the waits that stalled longest.
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "allocator/stats.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/html_report.h"
#include "cli/inputs.h"
#include "formats/json_text.h"
#include "model/decimal.h"
#include "timing/range_makespans.h"
#include "timing/simulate.h"
#include "timing/simulation_report.h"
#include "timing/svg.h"
#include "timing/timeline.h"

namespace syncbisim::cli {

namespace {

struct SimulateArgs {
  std::string spec, impl, trips, costs, svg, svg_range, html;
  bool json = false;
};

// The command's output is the library's (timing/simulation_report.h), which the public API's
// simulate() prints too.
int run_simulate(const SimulateArgs& a) {
  int status = 0;
  auto trips = allocator::parse_trips(a.trips);
  if (!trips) return input_error(trips.error());
  timing::CostTable table = timing::default_cost_table();
  if (!a.costs.empty()) {
    auto t = timing::load_cost_table(a.costs);
    if (!t) return input_error(t.error());
    table = std::move(*t);
  }
  timing::SvgWindow window;
  if (!a.svg_range.empty()) {
    auto w = timing::parse_window(a.svg_range);
    if (!w) return input_error(w.error());
    window = *w;
  }
  auto pair = load_pair(a.spec, a.impl, status);
  if (!pair) return status;
  // Costs fall back to the engine's catch-all entry without an op: say so, with the fix.
  if (const auto bare = timing::instrs_without_op(pair->spec.program); !bare.empty()) {
    std::string some;
    for (std::size_t i = 0; i < bare.size() && i < 3; ++i) some += (i ? ", " : "") + bare[i];
    std::cerr << a.spec << ": note: " << bare.size() << " of " << pair->spec.index.instrs.size()
              << " instructions have no op (" << some << (bare.size() > 3 ? ", ..." : "")
              << "): each costs its engine's default; give it an op (text I0@{\"op\":\"matmul\"}, JSON "
                 "{\"instr\": \"I0\", \"op\": \"matmul\"}) or an interval and latency (docs/timing.md \"Costs\")\n";
  }
  timing::SimOptions o;
  o.record = !a.svg.empty() || !a.html.empty();
  auto sim = timing::simulate_pair(pair->spec.program, pair->spec.index, pair->impl.program, pair->impl.index, table,
                                   *trips, o);
  if (!sim) return input_error(sim.error());
  if (!a.svg.empty()) {
    const auto tl = timing::simulation_timeline(*sim, pair->impl_code(), window);
    if (tl.next_page >= 0)
      std::cerr << "note: --svg: the picture holds the first " << window.max_page
                << " instructions of the range (a page); the next page starts at cycle "
                << model::fixed(tl.next_page, 0) << " (--svg-range " << model::fixed(tl.next_page, 0) << ":"
                << model::fixed(window.to, 0) << ")\n";
    if (auto s = formats::write_file_atomically(a.svg, timing::render_svg(tl)); !s) {
      auto d = s.error();
      d.file = a.svg;
      return input_error(d);
    }
  }
  if (!a.html.empty())
    if (const int s = write_simulate_html(a.html, {a.spec, a.impl}, *pair, *sim, window); s != 0) return s;
  // The other ends of the dynamic ranges the run above took at their largest (issue 42).
  auto ranges = timing::range_makespans(pair->spec.program, pair->spec.index, pair->impl.program, pair->impl.index,
                                        table, *trips, *sim, o);
  if (!ranges) return input_error(ranges.error());
  if (a.json)
    std::cout << formats::json_text(timing::simulation_json(*sim, pair->impl_code(), *ranges));
  else std::cout << timing::simulation_text(*sim, pair->impl_code(), *ranges);
  if (!sim->limit.empty()) return 3;  // cut: nothing decided (as an inconclusive check)
  return sim->deadlock ? 1 : 0;
}

}  // namespace

void add_simulate(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] = add_command<SimulateArgs>(
      app, ctx, name, "Run an impl on the timing model: makespan in cycles, per-engine time", run_simulate);
  add_pair_arguments(cmd, a->spec, a->impl);
  cmd->add_option("--trips", a->trips,
                  "iterations per trip, e.g. A=3,B=4,C=else (default: each loop's sim_trip, else its rule)");
  cmd->add_option("--costs", a->costs, "cost table (JSON, docs/timing.md); default: the built-in Trainium2 table")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--json", a->json, "print one JSON document (makespan in cycles)");
  cmd->add_option("--svg", a->svg, "draw the timeline as SVG into this file");
  cmd->add_option("--html", a->html,
                  "write a self-contained page to look at into this file: the makespan, both programs, per-engine "
                  "time, the waits that stalled, the timeline (of --svg-range; docs/report.md)");
  cmd->add_option(
      "--svg-range", a->svg_range,
      "cycles to draw, FROM:TO (default: the start, up to 80 instructions; at most 2000 instructions a page)");
}

}  // namespace syncbisim::cli
