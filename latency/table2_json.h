#pragma once
// The table2/1 JSON document of `syncbisim table2 --json` (docs/schema/table2.schema.json), beside
// render_text (latency/table2.h); the command and the public API's table2() both print it.
#include <vector>

#include <nlohmann/json.hpp>

#include "latency/table2.h"

namespace syncbisim::latency {

nlohmann::json row_json(const Row& r);
nlohmann::json render_json(const std::vector<Row>& rows);

}  // namespace syncbisim::latency
