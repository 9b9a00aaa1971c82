#include "fuzz/generator_stats.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace syncbisim::fuzz {

void GeneratorStats::add(const SpecProfile& p) {
  ++specs;
  degenerate += p.degenerate() ? 1 : 0;
  with_conds += p.conds ? 1 : 0;
  with_divergent += p.divergent ? 1 : 0;
  with_footprints += p.footprints ? 1 : 0;
  with_several_per_consumer += p.consumers_with_several > 0 ? 1 : 0;
  ++specs_by_depth[p.depth];
  std::array<bool, kDependencyCases> live_case{};
  for (const auto& d : p.deps) {
    deps.add(d.live);
    if (d.same_engine) same_engine.add(d.live);
    by_case[static_cast<std::size_t>(d.kind)].add(d.live);
    by_offset[std::min<std::uint32_t>(d.offset, 3)].add(d.live);
    by_depth[d.depth].add(d.live);
    if (d.live) live_case[static_cast<std::size_t>(d.kind)] = true;
  }
  for (std::size_t i = 0; i < kDependencyCases; ++i) specs_with_live_case[i] += live_case[i] ? 1 : 0;
}

namespace {

std::string pct(std::uint64_t part, std::uint64_t whole) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return b;
}

// "producer-in-S forward 31.0% (92.1% live)": the share of all dependencies, then its live share.
std::string share(const std::string& name, const LiveCount& c, std::uint64_t total) {
  return name + " " + pct(c.all, total) + " (" + pct(c.live, c.all) + " live)";
}

std::string offset_name(std::uint32_t k) { return k >= 3 ? "3+" : std::to_string(k); }

nlohmann::json count_json(const LiveCount& c) { return nlohmann::json{{"all", c.all}, {"live", c.live}}; }

}  // namespace

std::string stats_line(const GeneratorStats& s) {
  return "specs " + std::to_string(s.specs) + ": " + pct(s.specs - s.degenerate, s.specs) +
         " with a live dependency (" + std::to_string(s.degenerate) + " degenerate); dependencies " +
         std::to_string(s.deps.all) + ", " + pct(s.deps.live, s.deps.all) + " live";
}

std::string stats_text(const GeneratorStats& s) {
  std::ostringstream o;
  o << stats_line(s) << "\n";
  o << "  dependencies by case:";
  for (std::size_t i = 0; i < kDependencyCases; ++i)
    o << (i ? "," : "") << " " << share(to_string(static_cast<DependencyCase>(i)), s.by_case[i], s.deps.all);
  o << "\n  specs with a live dependency of the case:";
  for (std::size_t i = 0; i < kDependencyCases; ++i)
    o << (i ? "," : "") << " " << to_string(static_cast<DependencyCase>(i)) << " "
      << pct(s.specs_with_live_case[i], s.specs);
  o << "\n  dependencies by offset:";
  for (const auto& [k, c] : s.by_offset) o << " " << share(offset_name(k), c, s.deps.all) << ";";
  o << "\n  dependencies by depth of the loop they are carried at:";
  for (const auto& [d, c] : s.by_depth) o << " " << share(std::to_string(d), c, s.deps.all) << ";";
  o << "\n  " << share("same engine", s.same_engine, s.deps.all) << "\n";
  o << "  specs: with conds " << pct(s.with_conds, s.specs) << ", with divergent trips "
    << pct(s.with_divergent, s.specs) << ", with footprints " << pct(s.with_footprints, s.specs)
    << ", with a consumer of several live dependencies "
    << pct(s.with_several_per_consumer, s.specs) << "; by nesting depth:";
  for (const auto& [d, n] : s.specs_by_depth) o << " " << d << " " << pct(n, s.specs) << ";";
  o << "\n";
  return o.str();
}

nlohmann::json stats_json(const GeneratorStats& s) {
  nlohmann::json cases = nlohmann::json::object();
  for (std::size_t i = 0; i < kDependencyCases; ++i) {
    auto c = count_json(s.by_case[i]);
    c["specs_with_live"] = s.specs_with_live_case[i];
    cases[to_string(static_cast<DependencyCase>(i))] = std::move(c);
  }
  nlohmann::json offsets = nlohmann::json::object(), depths = nlohmann::json::object(),
                 spec_depths = nlohmann::json::object();
  for (const auto& [k, c] : s.by_offset) offsets[offset_name(k)] = count_json(c);
  for (const auto& [d, c] : s.by_depth) depths[std::to_string(d)] = count_json(c);
  for (const auto& [d, n] : s.specs_by_depth) spec_depths[std::to_string(d)] = n;
  return nlohmann::json{{"specs", s.specs},
                        {"degenerate", s.degenerate},
                        {"with_conds", s.with_conds},
                        {"with_divergent_trips", s.with_divergent},
                        {"with_footprints", s.with_footprints},
                        {"with_several_per_consumer", s.with_several_per_consumer},
                        {"specs_by_depth", spec_depths},
                        {"dependencies", count_json(s.deps)},
                        {"same_engine", count_json(s.same_engine)},
                        {"by_case", cases},
                        {"by_offset", offsets},
                        {"by_depth", depths}};
}

}  // namespace syncbisim::fuzz
