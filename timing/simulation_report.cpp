#include "timing/simulation_report.h"

#include "timing/range_makespans.h"

#include <cstdio>

namespace syncbisim::timing {

namespace {

std::string pct(std::uint64_t part, std::uint64_t whole) {
  char b[16];
  std::snprintf(b, sizeof b, "%5.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return b;
}

}  // namespace

std::string simulation_text(const Simulation& s, const semantics::CompiledProgram& code,
                            const std::vector<RangeMakespan>& ranges) {
  return simulation_text(s, code) + range_makespans_text(ranges);
}

std::string simulation_text(const Simulation& s, const semantics::CompiledProgram& code) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "makespan: %llu cycles (%.2f us at %.2f GHz)%s\n",
                static_cast<unsigned long long>(s.makespan), static_cast<double>(s.makespan) / (s.clock_ghz * 1000.0),
                s.clock_ghz, s.deadlock ? ", then deadlock" : "");
  out += line;
  if (s.deadlock) out += "deadlock: " + s.deadlock_detail + "\n";
  if (!s.limit.empty()) out += "limit: " + s.limit + "; the figures are those of the run so far\n";
  // A kernel of thousands of loops would print thousands here (issue 39: 20,000 on one line):
  // the first ones, then how many more; --json lists every one.
  out += "trips:" + (s.trips.empty() ? "" : " " + listed_loops(s.trips, " ", " loops (--json lists every one)")) + "\n";
  std::snprintf(line, sizeof line, "%-8s %12s %12s %12s %12s\n", "engine", "busy", "stalled", "barrier", "idle");
  out += line;
  for (const auto& e : s.engines) {
    std::snprintf(line, sizeof line, "%-8s %12llu %12llu %12llu %12llu   busy %s, stalled %s, barrier %s\n",
                  e.engine.c_str(), static_cast<unsigned long long>(e.busy), static_cast<unsigned long long>(e.stalled),
                  static_cast<unsigned long long>(e.barrier), static_cast<unsigned long long>(e.idle),
                  pct(e.busy, s.makespan).c_str(), pct(e.stalled, s.makespan).c_str(),
                  pct(e.barrier, s.makespan).c_str());
    out += line;
  }
  out += "issued " + std::to_string(s.instrs_issued) + " datapath instructions, " + std::to_string(s.regops) +
         " register operations, " + std::to_string(s.branches) + " branches, " + std::to_string(s.barriers) +
         " barriers\n";
  if (s.stalls.empty()) return out + "no wait stalled\n";
  out += "waits that stalled longest:\n";
  for (std::size_t i = 0; i < s.stalls.size() && i < 5; ++i) {
    const auto& st = s.stalls[i];
    std::snprintf(line, sizeof line, "  %s on %s: %llu cycles over %llu issues (longest %llu)\n",
                  code.instrs[st.instr].name.c_str(), code.semaphores[st.sem].c_str(),
                  static_cast<unsigned long long>(st.total), static_cast<unsigned long long>(st.count),
                  static_cast<unsigned long long>(st.longest));
    out += line;
  }
  return out;
}

nlohmann::json simulation_json(const Simulation& s, const semantics::CompiledProgram& code,
                               const std::vector<RangeMakespan>& ranges) {
  auto j = simulation_json(s, code);
  if (!ranges.empty()) j["ranges"] = range_makespans_json(ranges);
  return j;
}

nlohmann::json simulation_json(const Simulation& s, const semantics::CompiledProgram& code) {
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

}  // namespace syncbisim::timing
