// syncbisim simulate SPEC IMPL [--trips L=N,...] [--costs FILE] [--json] [--svg FILE]: the impl on
// the timing model (docs/timing.md): makespan, per-engine time, the waits that stalled longest.
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "allocator/stats.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "model/decimal.h"
#include "timing/simulate.h"
#include "timing/svg.h"
#include "timing/timeline.h"

namespace syncbisim::cli {

namespace {

struct SimulateArgs {
  std::string spec, impl, trips, costs, svg, svg_range;
  bool json = false;
};

std::string pct(std::uint64_t part, std::uint64_t whole) {
  char b[16];
  std::snprintf(b, sizeof b, "%5.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return b;
}

void print_text(const timing::Simulation& s, const semantics::CompiledProgram& code) {
  char line[256];
  std::snprintf(line, sizeof line, "makespan: %llu cycles (%.2f us at %.2f GHz)%s\n",
                static_cast<unsigned long long>(s.makespan), static_cast<double>(s.makespan) / (s.clock_ghz * 1000.0),
                s.clock_ghz, s.deadlock ? ", then deadlock" : "");
  std::cout << line;
  if (s.deadlock) std::cout << "deadlock: " << s.deadlock_detail << "\n";
  if (!s.limit.empty()) std::cout << "limit: " << s.limit << "; the figures are those of the run so far\n";
  std::cout << "trips:";
  for (const auto& t : s.trips) std::cout << " " << t;
  std::cout << "\n";
  std::snprintf(line, sizeof line, "%-8s %12s %12s %12s %12s\n", "engine", "busy", "stalled", "barrier", "idle");
  std::cout << line;
  for (const auto& e : s.engines) {
    std::snprintf(line, sizeof line, "%-8s %12llu %12llu %12llu %12llu   busy %s, stalled %s, barrier %s\n",
                  e.engine.c_str(), static_cast<unsigned long long>(e.busy), static_cast<unsigned long long>(e.stalled),
                  static_cast<unsigned long long>(e.barrier), static_cast<unsigned long long>(e.idle),
                  pct(e.busy, s.makespan).c_str(), pct(e.stalled, s.makespan).c_str(),
                  pct(e.barrier, s.makespan).c_str());
    std::cout << line;
  }
  std::cout << "issued " << s.instrs_issued << " datapath instructions, " << s.regops << " register operations, "
            << s.branches << " branches, " << s.barriers << " barriers\n";
  if (s.stalls.empty()) {
    std::cout << "no wait stalled\n";
    return;
  }
  std::cout << "waits that stalled longest:\n";
  for (std::size_t i = 0; i < s.stalls.size() && i < 5; ++i) {
    const auto& st = s.stalls[i];
    std::snprintf(line, sizeof line, "  %s on %s: %llu cycles over %llu issues (longest %llu)\n",
                  code.instrs[st.instr].name.c_str(), code.semaphores[st.sem].c_str(),
                  static_cast<unsigned long long>(st.total), static_cast<unsigned long long>(st.count),
                  static_cast<unsigned long long>(st.longest));
    std::cout << line;
  }
}

nlohmann::json to_json(const timing::Simulation& s, const semantics::CompiledProgram& code) {
  nlohmann::json j;
  j["syncbisim"] = "simulate/1";  // docs/schema/simulate.schema.json
  j["makespan"] = s.makespan;
  j["clock_ghz"] = s.clock_ghz;
  j["deadlock"] = s.deadlock;
  if (s.deadlock) j["deadlock_detail"] = s.deadlock_detail;
  if (!s.limit.empty()) j["limit"] = s.limit;
  j["trips"] = s.trips;
  j["engines"] = nlohmann::json::array();
  for (const auto& e : s.engines)
    j["engines"].push_back({{"engine", e.engine},
                            {"busy", e.busy},
                            {"stalled", e.stalled},
                            {"barrier", e.barrier},
                            {"idle", e.idle},
                            {"finish", e.finish}});
  j["issued"] = {{"instrs", s.instrs_issued}, {"regops", s.regops}, {"branches", s.branches}, {"barriers", s.barriers}};
  j["stalls"] = nlohmann::json::array();
  for (const auto& st : s.stalls)
    j["stalls"].push_back({{"instr", code.instrs[st.instr].name},
                           {"engine", code.engines[code.instrs[st.instr].engine]},
                           {"semaphore", code.semaphores[st.sem]},
                           {"cycles", st.total},
                           {"issues", st.count},
                           {"longest", st.longest}});
  return j;
}

int run(const SimulateArgs& a) {
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
  o.record = !a.svg.empty();
  auto sim = timing::simulate_pair(pair->spec.program, pair->spec.index, pair->impl.program, pair->impl.index, table,
                                   *trips, o);
  if (!sim) return input_error(sim.error());
  if (!a.svg.empty()) {
    const auto tl = timing::simulation_timeline(*sim, pair->impl_code(), window);
    if (tl.next_page >= 0)
      std::cerr << "note: --svg: the picture holds the first " << window.max_page
                << " instructions of the range (a page); the next page starts at cycle " << model::fixed(tl.next_page, 0)
                << " (--svg-range " << model::fixed(tl.next_page, 0) << ":" << model::fixed(window.to, 0) << ")\n";
    if (auto s = formats::write_file_atomically(a.svg, timing::render_svg(tl)); !s) {
      auto d = s.error();
      d.file = a.svg;
      return input_error(d);
    }
  }
  if (a.json) std::cout << to_json(*sim, pair->impl_code()).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else print_text(*sim, pair->impl_code());
  if (!sim->limit.empty()) return 3;  // cut: nothing decided (as an inconclusive check)
  return sim->deadlock ? 1 : 0;
}

}  // namespace

void add_simulate(CLI::App& app, Context& ctx) {
  auto [cmd, a] = add_command<SimulateArgs>(
      app, ctx, "simulate", "Run an impl on the timing model: makespan in cycles, per-engine time", run);
  add_pair_arguments(cmd, a->spec, a->impl);
  cmd->add_option("--trips", a->trips,
                  "iterations per trip, e.g. A=3,B=4,C=else (default: each loop's sim_trip, else its rule)");
  cmd->add_option("--costs", a->costs, "cost table (JSON, docs/timing.md); default: the built-in Trainium2 table")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--json", a->json, "print one JSON document (makespan in cycles)");
  cmd->add_option("--svg", a->svg, "draw the timeline as SVG into this file");
  cmd->add_option("--svg-range", a->svg_range, "cycles to draw, FROM:TO (default: the start, up to 80 instructions; at most 2000 instructions a page)");
}

}  // namespace syncbisim::cli
