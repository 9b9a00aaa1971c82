#pragma once
// What the footprint analysis says about a spec, for people and as JSON (docs/footprints.md): the
// derived graph (`syncbisim deps`) and the written graph judged against it (`deps --compare`,
// and check and prove on a spec with footprints). `deps` and the public API's
// derive_dependencies() / compare_dependencies() print through these, so they cannot disagree.
#include <string>

#include <nlohmann/json.hpp>

#include "footprint/compare.h"
#include "footprint/derive.h"

namespace syncbisim::footprint {

// The derived graph: one line per dependency with the conflicts that justify it.
std::string derivation_text(const Derivation& d);
nlohmann::json derivation_json(const Derivation& d);
// `text`, a spec's text form with the derived graph, with each kept derived dependency's first
// justifying conflict as a comment on its line (the reader skips comments: the same program).
std::string with_reasons(const std::string& text, const Derivation& d);

// The written graph against the footprints; the text's first line is the verdict.
std::string comparison_text(const Comparison& c);
nlohmann::json comparison_json(const Comparison& c);
// 0 ordered, 1 race, 3 inconclusive.
int comparison_status(const Comparison& c);

}  // namespace syncbisim::footprint
