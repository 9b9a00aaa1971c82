#include "allocator/stats_report.h"

#include <cstdio>

#include "allocator/budget.h"

namespace syncbisim::allocator {

nlohmann::json budget_json(const Stats& s, const Options& budget) {
  return {{"semaphores", {{"used", s.semaphores}, {"limit", budget.max_semaphores}}},
          {"registers_per_engine", {{"used", s.registers_max}, {"limit", budget.max_registers}}}};
}

bool within_budget(const Stats& s, const Options& budget) {
  Usage used;
  used.semaphores = s.semaphores;
  for (const auto& [engine, n] : s.registers_per_engine) used.registers.push_back(n);
  return used.fits(budget);
}

nlohmann::json count_json(const Count& c) { return c.fits ? nlohmann::json(c.value) : nlohmann::json(c.to_string()); }

std::string count_cell(const Count& c) { return c.fits ? std::to_string(c.value) : ">2^64-1"; }

nlohmann::json figures_json(const Stats& s) {
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

nlohmann::json stats_json(const Stats& s, const Options& budget) {
  auto j = figures_json(s);
  j["syncbisim"] = "stats/1";  // docs/schema/stats.schema.json
  j["budget"] = budget_json(s, budget);
  if (s.live) {
    nlohmann::json regs = nlohmann::json::object();
    for (const auto& [e, n] : s.live->registers_per_engine) regs[e] = n;
    j["peak_live"] = {{"registers_per_engine", regs},
                      {"registers_max", s.live->registers_max},
                      {"semaphores", s.live->semaphores}};
  }
  return j;
}

std::string stats_text(const Stats& s, const Options& budget) {
  std::string out = "semaphores: " + std::to_string(s.semaphores) + "\n";
  out += "registers per engine:";
  for (const auto& [e, n] : s.registers_per_engine) out += " " + e + "=" + std::to_string(n);
  out += " (max " + std::to_string(s.registers_max) + ")\n";
  out += "waits: " + std::to_string(s.waits) + " on " + std::to_string(s.waiting_instrs) + " instructions (" +
         std::to_string(s.multi_wait_instrs) + " with more than one)\n";
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.2f", s.alu_mean);
  out += "ALU operations per issue: max " + std::to_string(s.alu_max) + ", mean " + mean + "\n";
  out += "register operations executed: " + s.regops_executed.to_string() + "\n";
  out += "barriers executed: " + s.barriers_executed.to_string() + "\n";
  out += "datapath instructions executed: " + s.instrs_executed.to_string() + "\n";
  out += "code size: " + std::to_string(s.code_bytes) + " bytes\n";
  out += "budget: " + std::to_string(s.semaphores) + " of " + std::to_string(budget.max_semaphores) + " semaphores, " +
         std::to_string(s.registers_max) + " of " + std::to_string(budget.max_registers) + " registers per engine" +
         (within_budget(s, budget) ? "" : " (over)") + "\n";
  if (s.live) {
    out += "live at once at most: " + std::to_string(s.live->semaphores) + " semaphores, registers per engine";
    for (const auto& [e, n] : s.live->registers_per_engine) out += " " + e + "=" + std::to_string(n);
    out += " (max " + std::to_string(s.live->registers_max) + ")\n";
  }
  for (const auto& a : s.assumptions) out += "assumed: " + a + "\n";
  return out;
}

}  // namespace syncbisim::allocator
