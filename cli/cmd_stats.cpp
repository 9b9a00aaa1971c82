// syncbisim stats IMPL [--json] [--trips A=3,B=4]: the resource figures of an impl (paper
// Table 1/2, docs/allocator.md). syncbisim stats --compare SPEC: one row per strategy, with its
// makespan on the timing model. The figures, the table and their JSON are the library's
// (allocator/stats_report.h, latency/strategy_comparison.h), which the public API prints too.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "allocator/allocate.h"
#include "allocator/stats.h"
#include "allocator/stats_report.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/json_text.h"
#include "latency/strategy_comparison.h"
#include "parallel/cores.h"

namespace syncbisim::cli {

namespace {

struct StatsArgs {
  std::string impl, compare, trips;
  bool json = false;
  unsigned jobs = 0;  // 0: every core
  std::size_t max_semaphores = allocator::Options{}.max_semaphores, max_registers = allocator::Options{}.max_registers;
};

int run_stats(const StatsArgs& a) {
  int status = 0;
  auto trips = allocator::parse_trips(a.trips);
  if (!trips) return input_error(trips.error());
  if (a.compare.empty() == a.impl.empty()) {
    std::cerr << "syncbisim stats: give either IMPL or --compare SPEC\n";
    return 2;
  }
  if (!a.impl.empty()) {
    auto impl = load_impl(a.impl, status);
    if (!impl) return status;
    auto s = allocator::compute_stats(impl->program, *trips);
    if (!s) return input_error(s.error());
    s->live = allocator::live_figures(impl->program);
    allocator::Options budget;
    budget.max_semaphores = a.max_semaphores;
    budget.max_registers = a.max_registers;
    if (a.json)
      std::cout << formats::json_text(allocator::stats_json(*s, budget));
    else std::cout << allocator::stats_text(*s, budget);
    return 0;
  }
  auto spec = load_spec(a.compare, status);
  if (!spec) return status;
  latency::ComparisonOptions o;
  o.trips = *trips;
  o.max_semaphores = a.max_semaphores;
  o.max_registers = a.max_registers;
  o.jobs = parallel::given_or_every_core(a.jobs);
  const auto c = latency::compare_strategies(spec->program, spec->index, o, a.compare);
  if (!c) return input_error(c.error());
  if (a.json)
    std::cout << formats::json_text(latency::strategy_table_json(*c, o));
  else std::cout << latency::strategy_table_text(*c, o);
  return 0;
}

}  // namespace

void add_stats(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, args] = add_command<StatsArgs>(
      app, ctx, name, "Resource figures of an impl (semaphores, registers, ALU, regops, code size)", run_stats);
  cmd->add_option("IMPL", args->impl, "impl program (JSON or text)")->check(CLI::ExistingFile);
  cmd->add_option("--compare", args->compare,
                  "allocate SPEC with every strategy and print one row each, with its makespan on the timing model")
      ->check(CLI::ExistingFile);
  cmd->add_option("--trips", args->trips, "iterations per trip, e.g. A=3,B=4,C=else (default: each loop's maximum)");
  cmd->add_flag("--json", args->json, "print JSON");
  cmd->add_option("--jobs", args->jobs,
                  "with --compare: allocations at once, the same table for any number (default: every core)");
  cmd->add_option("--max-semaphores", args->max_semaphores,
                  "the semaphore budget to report against (and, with --compare, to allocate in)")
      ->capture_default_str();
  cmd->add_option("--max-registers", args->max_registers, "the per-engine register budget (likewise)")
      ->capture_default_str();
}

}  // namespace syncbisim::cli
