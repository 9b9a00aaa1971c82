// stats() and compare_strategies() of the public API: an impl's resource figures and every
// strategy side by side (`syncbisim stats`, `stats --compare`), through the library calls the
// command makes (allocator/stats_report.h, latency/strategy_comparison.h).
#include "allocator/stats.h"
#include "allocator/stats_report.h"
#include "formats/json_text.h"
#include "api/detail/options.h"
#include "api/detail/program_data.h"
#include "latency/strategy_comparison.h"

namespace syncbisim {

namespace {

std::optional<std::uint64_t> count_of(const allocator::Count& c) {
  return c.fits ? std::optional<std::uint64_t>(c.value) : std::nullopt;
}

ResourceFigures figures_of(const allocator::Stats& s) {
  return ResourceFigures{s.semaphores,
                         s.registers_per_engine,
                         s.registers_max,
                         s.waiting_instrs,
                         s.waits,
                         s.multi_wait_instrs,
                         s.alu_max,
                         s.alu_mean,
                         count_of(s.regops_executed),
                         count_of(s.barriers_executed),
                         count_of(s.instrs_executed),
                         s.code_bytes,
                         s.assumptions};
}

allocator::Options budget_of(const StatsOptions& o) {
  allocator::Options b;
  b.max_semaphores = o.max_semaphores;
  b.max_registers = o.max_registers;
  return b;
}

}  // namespace

StatsResult stats(const Program& impl, const StatsOptions& options) {
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  const auto trips = api::detail::trips(options.trips);
  auto s = allocator::compute_stats(impl.data().program, trips);
  if (!s) api::detail::raise(s.error(), impl.data().name);
  s->live = allocator::live_figures(impl.data().program);  // as `syncbisim stats IMPL` reports
  const auto budget = budget_of(options);
  return StatsResult{figures_of(*s), allocator::within_budget(*s, budget), allocator::stats_text(*s, budget),
                     formats::json_text(allocator::stats_json(*s, budget))};
}

StrategyComparison compare_strategies(const Program& spec, const StatsOptions& options) {
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  latency::ComparisonOptions o;
  o.trips = api::detail::trips(options.trips);
  o.max_semaphores = options.max_semaphores;
  o.max_registers = options.max_registers;
  o.jobs = options.jobs;
  const auto& d = spec.data();
  const auto c = latency::compare_strategies(d.program, d.index, o, d.name);
  if (!c) api::detail::raise(c.error(), d.name);
  StrategyComparison out;
  for (const auto& r : c->rows) {
    StrategyRow row;
    row.strategy = api::detail::strategy_from(r.strategy);
    row.over_budget = r.over_budget;
    if (r.over_budget.empty()) {
      row.figures = figures_of(r.after);
      row.registers_max_before = r.before.registers_max;
      row.alu_max_before = r.before.alu_max;
      row.alu_mean_before = r.before.alu_mean;
      row.fallback_deps = r.fallback;
      row.inexact_deps = r.inexact;
      row.exact = r.exact;
      row.cycles = r.cycles;
      row.cycles_why = r.cycles_why;
    }
    out.rows.push_back(std::move(row));
  }
  out.text = latency::strategy_table_text(*c, o);
  out.json = formats::json_text(latency::strategy_table_json(*c, o));
  return out;
}

}  // namespace syncbisim
