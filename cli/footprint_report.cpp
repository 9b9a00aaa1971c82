#include "cli/footprint_report.h"

#include <nlohmann/json.hpp>

#include <iostream>

#include "footprint/report.h"
#include "formats/json_text.h"
#include "latency/graph_price.h"

namespace syncbisim::cli {

std::optional<FootprintJudgement> judge_footprints(const formats::LoadedProgram& spec) {
  if (!spec.program.has_footprints()) return std::nullopt;
  FootprintJudgement j;
  j.kernel = footprint::Kernel::of(spec.program, spec.index);
  j.derivation = footprint::derive(j.kernel);
  j.comparison = footprint::compare(j.kernel, spec.program.deps, j.derivation);
  return j;
}

// The reports are the library's (footprint/report.h, latency/graph_price.h), which `deps` and the
// public API print too: these forward, so that check, prove and deps cannot word them apart.
void price_over_synchronized(footprint::Comparison& c, const footprint::Derivation& derived,
                             const formats::LoadedProgram& spec) {
  latency::price_over_synchronized(c, derived, spec.program);
}

int print_race(const footprint::Comparison& c, bool json) {
  // Qualified: footprint:: holds the same names, which argument-dependent lookup would find too.
  if (json) std::cout << formats::json_text(nlohmann::json{{"verdict", "race"}, {"footprints", footprint::comparison_json(c)}});
  else std::cout << footprint::comparison_text(c);
  return 1;
}

int comparison_status(const footprint::Comparison& c) { return footprint::comparison_status(c); }

}  // namespace syncbisim::cli
