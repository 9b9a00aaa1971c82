#pragma once
// Where a campaign's draws went (issue 40, docs/fuzzing.md "What a campaign draws"): how many
// specs had a live dependency, and the dependencies by case, offset, depth and engine, each with
// its live share. Every campaign reports the first line; `fuzz --stats` and `gen --stats` the whole
// breakdown; the JSON report always carries it.
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "fuzz/spec_profile.h"

namespace syncbisim::fuzz {

// A count and how many of it are live.
struct LiveCount {
  std::uint64_t all = 0, live = 0;
  void add(bool is_live) {
    ++all;
    live += is_live ? 1 : 0;
  }
};

struct GeneratorStats {
  std::uint64_t specs = 0, degenerate = 0, with_conds = 0, with_divergent = 0, with_several_per_consumer = 0,
                with_footprints = 0;
  LiveCount deps, same_engine;
  std::array<LiveCount, kDependencyCases> by_case{};
  // Specs with at least one live dependency of the case: what a bug in that case's code needs.
  std::array<std::uint64_t, kDependencyCases> specs_with_live_case{};
  std::map<std::uint32_t, LiveCount> by_offset;  // 3 stands for 3 and more
  std::map<std::uint32_t, LiveCount> by_depth;   // of the loop a dependency is carried at
  std::map<std::uint32_t, std::uint64_t> specs_by_depth;

  void add(const SpecProfile& p);
};

// "specs 1500: 97.1% with a live dependency (43 degenerate); dependencies 5210, 88.0% live"
std::string stats_line(const GeneratorStats& s);
// The line, then one line per breakdown.
std::string stats_text(const GeneratorStats& s);
nlohmann::json stats_json(const GeneratorStats& s);

}  // namespace syncbisim::fuzz
