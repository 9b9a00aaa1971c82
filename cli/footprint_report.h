#pragma once
// What the footprint analysis (footprint/) says about a spec, for the commands that read one:
// the derived graph, and the written graph judged against it (docs/footprints.md).
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

#include "footprint/compare.h"
#include "footprint/derive.h"
#include "footprint/report.h"
#include "formats/load.h"

namespace syncbisim::cli {

struct FootprintJudgement {
  footprint::Kernel kernel;
  footprint::Derivation derivation;
  footprint::Comparison comparison;
};

// Nothing when the spec has no footprints.
std::optional<FootprintJudgement> judge_footprints(const formats::LoadedProgram& spec);

// Each over-synchronizing written dependency priced on the timing model (docs/timing.md): the
// spec allocated per loop with the written graph, against the same with that dependency replaced
// by the derived ones of its pair, at the kernel's sim trips; appended to the finding's message.
void price_over_synchronized(footprint::Comparison& c, const footprint::Derivation& derived,
                             const formats::LoadedProgram& spec);

// The derivation's and the comparison's text and JSON are footprint/report.h's.
// 0 ordered, 1 race, 3 inconclusive.
int comparison_status(const footprint::Comparison& c);
// A race as the verdict of `check` and `prove` (text, or one JSON document {"verdict": "race",
// "footprints": ...}) on stdout; returns 1.
int print_race(const footprint::Comparison& c, bool json);

}  // namespace syncbisim::cli
