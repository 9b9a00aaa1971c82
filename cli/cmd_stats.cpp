// syncbisim stats IMPL [--json] [--trips A=3,B=4]: the resource figures of an impl (paper
// Table 1/2, docs/allocator.md). syncbisim stats --compare SPEC: one row per strategy.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "allocator/allocate.h"
#include "allocator/budget.h"
#include "allocator/spec_facts.h"
#include "allocator/stats.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/cores.h"
#include "cli/inputs.h"
#include "latency/judge.h"
#include "parallel/run_indexed.h"

namespace syncbisim::cli {

namespace {

struct StatsArgs {
  std::string impl, compare, trips;
  bool json = false;
  unsigned jobs = 0;  // 0: every core
  std::size_t max_semaphores = allocator::Options{}.max_semaphores, max_registers = allocator::Options{}.max_registers;
};

// The budget used (docs/allocator.md "Budgets"): semaphores and the largest engine's registers.
nlohmann::json budget_json(const allocator::Stats& s, const StatsArgs& a) {
  return {{"semaphores", {{"used", s.semaphores}, {"limit", a.max_semaphores}}},
          {"registers_per_engine", {{"used", s.registers_max}, {"limit", a.max_registers}}}};
}

// Whether the impl is within the budget, by the rule the allocator fits by (allocator::Usage::fits,
// docs/allocator.md "Budgets"), so that "(over)" cannot disagree with it: a count at the limit is
// within it, one past it is over.
bool within_budget(const allocator::Stats& s, const StatsArgs& a) {
  allocator::Usage used;
  used.semaphores = s.semaphores;
  for (const auto& [engine, n] : s.registers_per_engine) used.registers.push_back(n);
  allocator::Options limits;
  limits.max_semaphores = a.max_semaphores;
  limits.max_registers = a.max_registers;
  return used.fits(limits);
}

// A count that fits as a number; one past 2^64 - 1 as the text that says so (docs/schema/stats.schema.json).
nlohmann::json count_json(const allocator::Count& c) {
  return c.fits ? nlohmann::json(c.value) : nlohmann::json(c.to_string());
}

// The same in a table cell.
std::string count_cell(const allocator::Count& c) { return c.fits ? std::to_string(c.value) : ">2^64-1"; }

nlohmann::json to_json(const allocator::Stats& s) {
  nlohmann::json regs = nlohmann::json::object();
  for (const auto& [e, n] : s.registers_per_engine) regs[e] = n;
  return {{"semaphores", s.semaphores},
          {"registers_per_engine", regs},
          {"registers_max", s.registers_max},
          {"waiting_instrs", s.waiting_instrs},
          {"waits", s.waits},
          {"multi_wait_instrs", s.multi_wait_instrs},
          {"alu_per_issue", {{"max", s.alu_max}, {"mean", s.alu_mean}}},
          {"regops_executed", count_json(s.regops_executed)},
          {"barriers_executed", count_json(s.barriers_executed)},
          {"instrs_executed", count_json(s.instrs_executed)},
          {"code_bytes", s.code_bytes},
          {"assumptions", s.assumptions}};
}

void print_text(const allocator::Stats& s, const StatsArgs& a) {
  std::cout << "semaphores: " << s.semaphores << "\n";
  std::cout << "registers per engine:";
  for (const auto& [e, n] : s.registers_per_engine) std::cout << " " << e << "=" << n;
  std::cout << " (max " << s.registers_max << ")\n";
  std::cout << "waits: " << s.waits << " on " << s.waiting_instrs << " instructions (" << s.multi_wait_instrs
            << " with more than one)\n";
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.2f", s.alu_mean);
  std::cout << "ALU operations per issue: max " << s.alu_max << ", mean " << mean << "\n";
  std::cout << "register operations executed: " << s.regops_executed.to_string() << "\n";
  std::cout << "barriers executed: " << s.barriers_executed.to_string() << "\n";
  std::cout << "datapath instructions executed: " << s.instrs_executed.to_string() << "\n";
  std::cout << "code size: " << s.code_bytes << " bytes\n";
  std::cout << "budget: " << s.semaphores << " of " << a.max_semaphores << " semaphores, " << s.registers_max << " of "
            << a.max_registers << " registers per engine" << (within_budget(s, a) ? "" : " (over)") << "\n";
  for (const auto& a : s.assumptions) std::cout << "assumed: " << a << "\n";
}

int run(const StatsArgs& a) {
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
    if (a.json) {
      auto j = to_json(*s);
      j["syncbisim"] = "stats/1";  // docs/schema/stats.schema.json
      j["budget"] = budget_json(*s, a);
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      print_text(*s, a);
    }
    return 0;
  }
  auto spec = load_spec(a.compare, status);
  if (!spec) return status;
  nlohmann::json rows = nlohmann::json::array();
  std::string table;
  char line[256];
  std::snprintf(line, sizeof line, "%-16s %5s %5s %7s %8s %8s %8s %6s %7s %9s | %5s %7s %8s\n", "strategy", "sema",
                "regs", "alu-max", "alu-mean", "regops", "barriers", "fallbk", "inexact", "code", "regs", "alu-max",
                "alu-mean");
  table += line;
  // Every strategy's allocation, and the same before paper §6.2's ALU reductions (LICM and CSE
  // off): independent jobs, run on --jobs threads and gathered in the table's order, so the
  // output does not depend on the threads. A job keeps the figures and the decisions' counts,
  // not the impl (at 100,000 instructions fourteen impls would not fit beside each other).
  struct Figures {
    model::Result<allocator::Stats> stats = model::make_error("", "not-run", "");
    std::size_t fallback = 0, inexact = 0;
    bool exact = false;
    std::optional<std::size_t> same_as;  // the job whose allocation this one's is (allocator::same_allocation_as)
  };
  const auto strategies = allocator::all_strategies();
  const allocator::SpecFacts facts(spec->program, spec->index);  // once for every job (a spec: load_spec)
  std::vector<Figures> jobs(2 * strategies.size());
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
  parallel::run_indexed(jobs.size(), given_or_every_core(a.jobs), [&](std::size_t job) {
    const auto i = order[job];
    allocator::Options o;
    o.strategy = strategies[i / 2];
    o.max_semaphores = a.max_semaphores;
    o.max_registers = a.max_registers;
    o.judge = latency::timing_judge(spec->program, spec->index);  // the expert's (allocator/expert.h)
    if (i % 2 == 1) o.licm = o.cse = false;
    auto& f = jobs[i];
    if (const auto same = allocator::same_allocation_as(facts, o)) {
      const auto k = static_cast<std::size_t>(std::find(strategies.begin(), strategies.end(), *same) - strategies.begin());
      f.same_as = 2 * k + i % 2;
      return;
    }
    auto alloc = allocator::allocate(facts, o);
    if (!alloc) {
      auto d = alloc.error();
      d.file = a.compare;
      f.stats = d;
      return;
    }
    f.stats = allocator::compute_stats(alloc->impl, *trips);  // allocate checked the impl
    for (const auto& d : alloc->decisions) {
      f.fallback += d.scheme == allocator::Scheme::Fallback;
      f.inexact += !d.exact;
    }
    f.exact = alloc->exact();
  });
  for (auto& f : jobs)
    if (f.same_as) f = Figures(jobs[*f.same_as]);  // an alias names a job that allocated
  for (std::size_t k = 0; k < strategies.size(); ++k) {
    const auto strategy = strategies[k];
    const auto& after = jobs[2 * k];
    const auto& s = after.stats;
    if (!s && s.error().rule == "over-budget") {  // this strategy cannot fit: say so, go on
      rows.push_back({{"strategy", allocator::to_string(strategy)}, {"over_budget", s.error().message}});
      std::snprintf(line, sizeof line, "%-16s ", allocator::to_string(strategy));  // the rows' strategy column
      table += line + ("over budget: " + s.error().message) + "\n";
      continue;
    }
    if (!s) return input_error(s.error());
    const auto& before = jobs[2 * k + 1].stats;
    if (!before) return input_error(before.error());
    auto row = to_json(*s);
    row["strategy"] = allocator::to_string(strategy);
    row["fallback_deps"] = after.fallback;
    row["inexact_deps"] = after.inexact;
    row["exact"] = after.exact;
    row["budget"] = budget_json(*s, a);
    row["before_reductions"] = {{"registers_max", before->registers_max},
                                {"alu_per_issue", {{"max", before->alu_max}, {"mean", before->alu_mean}}}};
    rows.push_back(row);
    std::snprintf(line, sizeof line, "%-16s %5zu %5zu %7u %8.2f %8s %8s %6zu %7zu %9llu | %5zu %7u %8.2f\n",
                  allocator::to_string(strategy), s->semaphores, s->registers_max, s->alu_max, s->alu_mean,
                  count_cell(s->regops_executed).c_str(), count_cell(s->barriers_executed).c_str(), after.fallback,
                  after.inexact, static_cast<unsigned long long>(s->code_bytes), before->registers_max, before->alu_max,
                  before->alu_mean);
    table += line;
  }
  table += "(after | before the ALU reductions of paper §6.2, LICM and CSE; budget " +
           std::to_string(a.max_semaphores) + " semaphores, " + std::to_string(a.max_registers) +
           " registers per engine)\n";
  if (a.json) std::cout << nlohmann::json{{"syncbisim", "stats-compare/1"}, {"rows", rows}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else std::cout << table;
  return 0;
}

}  // namespace

void add_stats(CLI::App& app, Context& ctx) {
  auto [cmd, args] = add_command<StatsArgs>(
      app, ctx, "stats", "Resource figures of an impl (semaphores, registers, ALU, regops, code size)", run);
  cmd->add_option("IMPL", args->impl, "impl program (JSON or text)")->check(CLI::ExistingFile);
  cmd->add_option("--compare", args->compare, "allocate SPEC with every strategy and print one row each")
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
