// simulate() of the public API: an impl on the timing model (docs/timing.md, `syncbisim
// simulate`), and the text options the timing calls share with their commands (--trips, --costs).
#include <cmath>

#include "allocator/stats.h"
#include "formats/json_text.h"
#include "api/detail/options.h"
#include "api/detail/program_data.h"
#include "checker/program_pair.h"
#include "timing/range_makespans.h"
#include "timing/simulate.h"
#include "timing/simulation_report.h"
#include "timing/svg.h"
#include "timing/timeline.h"

namespace syncbisim {

namespace api::detail {

std::map<std::string, std::uint32_t> trips(const std::string& text) {
  auto t = allocator::parse_trips(text);
  if (!t) raise(t.error());
  return std::move(*t);
}

timing::CostTable cost_table(const std::string& file, const std::string& json) {
  if (!file.empty() && !json.empty())
    throw Error("", "", "usage", "give a cost table as a file or as JSON text, not both");
  if (file.empty() && json.empty()) return timing::default_cost_table();
  auto t = file.empty() ? timing::parse_cost_table(json) : timing::load_cost_table(file);
  if (!t) raise(t.error(), file.empty() ? "<costs>" : file);
  return std::move(*t);
}

}  // namespace api::detail

int SimulateResult::exit_status() const {
  if (!limit.empty()) return 3;  // cut: nothing decided (as an inconclusive check)
  return deadlock ? 1 : 0;
}

SimulateResult simulate(const Program& spec, const Program& impl, const SimulateOptions& options) {
  api::detail::require_order(spec, impl);
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  // In the command's order: its options first, then the pair.
  const auto trips = api::detail::trips(options.trips);
  const auto table = api::detail::cost_table(options.costs_file, options.costs_json);
  timing::SvgWindow window;
  if (!options.svg_range.empty()) {
    auto w = timing::parse_window(options.svg_range);
    if (!w) api::detail::raise(w.error());
    window = *w;
  }
  const auto [matched, pair] = api::detail::pair_of(spec, impl, {});  // the command's check that they correspond
  const auto& s = matched.data();
  const auto& i = impl.data();
  timing::SimOptions o;
  o.record = options.svg;
  auto sim = timing::simulate_pair(s.program, s.index, i.program, i.index, table, trips, o);
  if (!sim) api::detail::raise(sim.error());
  const auto& code = pair->impl_code();
  SimulateResult out;
  out.makespan = sim->makespan;
  out.clock_ghz = sim->clock_ghz;
  out.deadlock = sim->deadlock;
  out.deadlock_detail = sim->deadlock_detail;
  out.limit = sim->limit;
  out.trips = sim->trips;
  for (const auto& e : sim->engines)
    out.engines.push_back(EngineTime{e.engine, e.busy, e.stalled, e.barrier, e.idle, e.finish});
  out.instrs_issued = sim->instrs_issued;
  out.regops = sim->regops;
  out.branches = sim->branches;
  out.barriers = sim->barriers;
  for (const auto& st : sim->stalls)
    out.stalls.push_back(Stall{code.instrs[st.instr].name, code.engines[code.instrs[st.instr].engine],
                               code.semaphores[st.sem], st.total, st.count, st.longest});
  out.without_op = timing::instrs_without_op(s.program);
  if (options.svg) {
    const auto tl = timing::simulation_timeline(*sim, code, window);
    if (tl.next_page >= 0) out.svg_next_page = static_cast<std::uint64_t>(std::llround(tl.next_page));
    out.svg = timing::render_svg(tl);
  }
  // As the command: the makespans over the dynamic ranges after the run's own figures.
  auto ranges = timing::range_makespans(s.program, s.index, i.program, i.index, table, trips, *sim, o);
  if (!ranges) api::detail::raise(ranges.error());
  out.text = timing::simulation_text(*sim, code, *ranges);
  out.json =
      formats::json_text(timing::simulation_json(*sim, code, *ranges));
  return out;
}

}  // namespace syncbisim
