#include "latency/strategy_comparison.h"

#include <algorithm>
#include <cstdio>

#include "allocator/spec_facts.h"
#include "allocator/stats_report.h"
#include "latency/judge.h"
#include "parallel/cores.h"
#include "parallel/run_indexed.h"
#include "timing/simulate.h"

namespace syncbisim::latency {

namespace {

allocator::Options budget_of(const ComparisonOptions& o) {
  allocator::Options b;
  b.max_semaphores = o.max_semaphores;
  b.max_registers = o.max_registers;
  return b;
}

// What `simulate SPEC IMPL` reports as the makespan, or why there is none to compare.
void time_on_model(const model::Program& spec, const model::ProgramIndex& ix, const model::Program& impl,
                   StrategyRow& row) {
  auto impl_ix = model::ProgramIndex::build(impl);
  if (!impl_ix) {
    row.cycles_why = impl_ix.error().message;
    return;
  }
  const auto sim = timing::simulate_pair(spec, ix, impl, *impl_ix, timing::default_cost_table(), {});
  if (!sim) row.cycles_why = sim.error().message;
  else if (sim->deadlock) row.cycles_why = "deadlock on the timing model: " + sim->deadlock_detail;
  else if (!sim->limit.empty()) row.cycles_why = "the timing model stopped at its limit: " + sim->limit;
  else row.cycles = sim->makespan;
}

}  // namespace

model::Result<StrategyComparison> compare_strategies(const model::Program& spec, const model::ProgramIndex& ix,
                                                     const ComparisonOptions& options, const std::string& file) {
  // Every strategy's allocation, and the same before paper §6.2's ALU reductions (LICM and CSE
  // off): independent jobs, run on threads and gathered in the table's order, so the result does
  // not depend on the threads. A job keeps the figures, the decisions' counts and the makespan,
  // not the impl (at 100,000 instructions fourteen impls would not fit beside each other).
  struct Job {
    model::Result<allocator::Stats> stats = model::make_error("", "not-run", "");
    StrategyRow row;                     // fallback, inexact, exact, cycles (the jobs with the reductions)
    std::optional<std::size_t> same_as;  // the job whose allocation this one's is (allocator::same_allocation_as)
  };
  const auto strategies = allocator::all_strategies();
  const allocator::SpecFacts facts(spec, ix);  // once for every job
  std::vector<Job> jobs(2 * strategies.size());
  // Taken costliest first (the expert judges several allocations, mixed and per-instruction fit
  // by trials), so that the threads end together; the table's order is the jobs' index.
  std::vector<std::size_t> order(jobs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto rank = [&](std::size_t i) {
    switch (strategies[i / 2]) {
      case allocator::Strategy::Expert: return 0;
      case allocator::Strategy::Mixed: return 1;
      case allocator::Strategy::PerInstruction: return 2;
      case allocator::Strategy::Auto: return 4;  // an alias of per-loop, nothing to allocate
      default: return 3;
    }
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return rank(x) < rank(y); });
  const unsigned threads = parallel::given_or_every_core(options.jobs);
  parallel::run_indexed(jobs.size(), threads, [&](std::size_t job) {
    const auto i = order[job];
    auto o = budget_of(options);
    o.strategy = strategies[i / 2];
    o.judge = timing_judge();  // the expert's (allocator/expert.h)
    if (i % 2 == 1) o.licm = o.cse = false;
    auto& j = jobs[i];
    if (const auto same = allocator::same_allocation_as(facts, o)) {
      const auto k =
          static_cast<std::size_t>(std::find(strategies.begin(), strategies.end(), *same) - strategies.begin());
      j.same_as = 2 * k + i % 2;
      return;
    }
    auto alloc = allocator::allocate(facts, o);
    if (!alloc) {
      auto d = alloc.error();
      d.file = file;
      j.stats = d;
      return;
    }
    j.stats = allocator::compute_stats(alloc->impl, options.trips);  // allocate checked the impl
    for (const auto& d : alloc->decisions) {
      j.row.fallback += d.scheme == allocator::Scheme::Fallback;
      j.row.inexact += !d.exact;
    }
    j.row.exact = alloc->exact();
    if (i % 2 == 0) time_on_model(spec, ix, alloc->impl, j.row);
  });
  for (auto& j : jobs)
    if (j.same_as) j = Job(jobs[*j.same_as]);  // an alias names a job that allocated
  StrategyComparison out;
  for (std::size_t k = 0; k < strategies.size(); ++k) {
    const auto& after = jobs[2 * k];
    StrategyRow row = after.row;
    row.strategy = strategies[k];
    if (!after.stats && after.stats.error().rule == "over-budget") {  // this strategy cannot fit: say so, go on
      out.rows.push_back(StrategyRow{.strategy = strategies[k], .over_budget = after.stats.error().message});
      continue;
    }
    if (!after.stats) return after.stats.error();
    const auto& before = jobs[2 * k + 1].stats;
    if (!before) return before.error();
    row.after = *after.stats;
    row.before = *before;
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::string strategy_table_text(const StrategyComparison& c, const ComparisonOptions& options) {
  std::string table;
  char line[320];
  std::snprintf(line, sizeof line, "%-16s %5s %5s %7s %8s %8s %8s %6s %7s %9s %10s | %5s %7s %8s\n", "strategy", "sema",
                "regs", "alu-max", "alu-mean", "regops", "barriers", "fallbk", "inexact", "code", "cycles", "regs",
                "alu-max", "alu-mean");
  table += line;
  for (const auto& r : c.rows) {
    if (!r.over_budget.empty()) {
      std::snprintf(line, sizeof line, "%-16s ", allocator::to_string(r.strategy));  // the rows' strategy column
      table += line + ("over budget: " + r.over_budget) + "\n";
      continue;
    }
    const auto& s = r.after;
    const std::string cycles = r.cycles ? std::to_string(*r.cycles) : "-";
    std::snprintf(line, sizeof line, "%-16s %5zu %5zu %7u %8.2f %8s %8s %6zu %7zu %9llu %10s | %5zu %7u %8.2f\n",
                  allocator::to_string(r.strategy), s.semaphores, s.registers_max, s.alu_max, s.alu_mean,
                  allocator::count_cell(s.regops_executed).c_str(), allocator::count_cell(s.barriers_executed).c_str(),
                  r.fallback, r.inexact, static_cast<unsigned long long>(s.code_bytes), cycles.c_str(),
                  r.before.registers_max, r.before.alu_max, r.before.alu_mean);
    table += line;
  }
  table += "(after | before the ALU reductions of paper §6.2, LICM and CSE; budget " +
           std::to_string(options.max_semaphores) + " semaphores, " + std::to_string(options.max_registers) +
           " registers per engine; cycles: the makespan on the timing model, as simulate gives it)\n";
  for (const auto& r : c.rows)
    if (r.over_budget.empty() && !r.cycles)
      table += std::string("no cycles for ") + allocator::to_string(r.strategy) + ": " + r.cycles_why + "\n";
  return table;
}

nlohmann::json strategy_table_json(const StrategyComparison& c, const ComparisonOptions& options) {
  const auto budget = budget_of(options);
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : c.rows) {
    if (!r.over_budget.empty()) {
      rows.push_back({{"strategy", allocator::to_string(r.strategy)}, {"over_budget", r.over_budget}});
      continue;
    }
    auto row = allocator::figures_json(r.after);
    row["strategy"] = allocator::to_string(r.strategy);
    row["fallback_deps"] = r.fallback;
    row["inexact_deps"] = r.inexact;
    row["exact"] = r.exact;
    row["budget"] = allocator::budget_json(r.after, budget);
    row["before_reductions"] = {{"registers_max", r.before.registers_max},
                                {"alu_per_issue", {{"max", r.before.alu_max}, {"mean", r.before.alu_mean}}}};
    row["cycles"] = r.cycles ? nlohmann::json(*r.cycles) : nlohmann::json(nullptr);
    if (!r.cycles) row["cycles_why"] = r.cycles_why;
    rows.push_back(std::move(row));
  }
  return {{"syncbisim", "stats-compare/1"}, {"rows", rows}};
}

}  // namespace syncbisim::latency
