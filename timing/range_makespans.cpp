#include "timing/range_makespans.h"

#include <set>

#include "model/walk.h"
#include "semantics/compiled_program.h"
#include "timing/trip_plan.h"

namespace syncbisim::timing {

namespace {

struct RangeLoop {
  std::string name;
  std::uint32_t min = 0, max = 0;
};

// Loops (not conds) whose rule is one range for every engine, not given a count and without a
// sim_trip: what a simulation would otherwise run at the range's largest value.
std::vector<RangeLoop> range_loops(const model::Program& spec, const model::ProgramIndex& ix,
                                   const std::map<std::string, std::uint32_t>& given) {
  std::set<std::string> scaled;  // loops with a sim_trip
  model::for_each_stmt(spec.body, [&](const model::Stmt& s, const model::LoopPath&) {
    if (const auto* l = std::get_if<model::Loop>(&s.node); l && l->sim_trip) scaled.insert(l->id);
  });
  std::vector<RangeLoop> out;
  for (const auto& l : ix.loops) {
    if (l.kind != model::LoopKind::Loop || !l.trip || l.trip->divergent || !l.trip->per_engine.empty()) continue;
    if (given.contains(l.name) || scaled.contains(l.name)) continue;
    if (const auto* r = std::get_if<model::RangeTrip>(&l.trip->uniform); r && r->min < r->max)
      out.push_back({l.name, r->min, r->max});
  }
  return out;
}

}  // namespace

model::Result<std::vector<RangeMakespan>> range_makespans(const model::Program& spec,
                                                          const model::ProgramIndex& spec_ix,
                                                          const model::Program& impl,
                                                          const model::ProgramIndex& impl_ix, const CostTable& table,
                                                          const std::map<std::string, std::uint32_t>& given,
                                                          const Simulation& largest, const SimOptions& options) {
  std::vector<RangeMakespan> out;
  const auto loops = range_loops(spec, spec_ix, given);
  if (loops.empty()) return out;
  auto o = options;
  o.record = false;  // figures only
  // Only the trips differ from one run to the next: the impl is compiled and costed once.
  const auto code = semantics::compile(impl, impl_ix, &spec_ix);
  const auto costs = instr_costs(spec, spec_ix, table);
  for (const std::string at : {"smallest", "median", "largest"}) {
    if (at == "median" && !largest.limit.empty()) continue;
    RangeMakespan m;
    m.at = at;
    auto trips = given;
    for (const auto& l : loops) {
      const std::uint32_t v = at == "smallest" ? l.min : at == "largest" ? l.max : l.min + (l.max - l.min) / 2;
      trips[l.name] = v;
      m.trips[l.name] = v;
    }
    if (at == "largest") {
      m.makespan = largest.makespan;
      m.deadlock = largest.deadlock;
      m.limit = largest.limit;
    } else {
      auto plan = TripPlan::make(spec, spec_ix, trips);
      if (!plan) return plan.error();
      const auto sim = simulate(code, costs, table, *plan, o);
      m.makespan = sim.makespan;
      m.deadlock = sim.deadlock;
      m.limit = sim.limit;
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::string listed_loops(const std::vector<std::string>& items, const std::string& sep, const std::string& tail) {
  std::string out;
  for (std::size_t k = 0; k < items.size() && k < kLoopsListed; ++k) out += (k ? sep : "") + items[k];
  if (items.size() > kLoopsListed)
    out += sep + "... and " + std::to_string(items.size() - kLoopsListed) + " more" + tail;
  return out;
}

std::string range_makespans_text(const std::vector<RangeMakespan>& r) {
  if (r.empty()) return "";
  std::vector<std::string> ranges;
  for (const auto& [name, v] : r.front().trips)
    ranges.push_back(name + " " + std::to_string(v) + ".." + std::to_string(r.back().trips.at(name)));
  const auto loops = listed_loops(ranges, ", ");
  std::string out = "over the dynamic ranges (" + loops + "):";
  for (std::size_t i = 0; i < r.size(); ++i) {
    const auto& m = r[i];
    out += std::string(i ? "," : "") + " " + std::to_string(m.makespan) + " cycles at the " + m.at + " trips" +
           (m.deadlock ? " (deadlock)" : "") + (m.limit.empty() ? "" : " (cut at the step limit)");
  }
  return out + "\n";
}

nlohmann::json range_makespans_json(const std::vector<RangeMakespan>& r) {
  auto out = nlohmann::json::array();
  for (const auto& m : r) {
    nlohmann::json j{{"at", m.at}, {"trips", m.trips}, {"makespan", m.makespan}, {"deadlock", m.deadlock}};
    if (!m.limit.empty()) j["limit"] = m.limit;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace syncbisim::timing
