#pragma once
// A prove result for people (the verdict first, one word, then one line per consumer) and for
// tools (the JSON of docs/prover.md "Output"). The command line and the public API print these.
#include <nlohmann/json.hpp>
#include <string>

#include "prover/prove.h"

namespace syncbisim::prover {

std::string render_text(const ProveResult& r);
nlohmann::json render_json(const ProveResult& r);

}  // namespace syncbisim::prover
