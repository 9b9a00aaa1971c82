#pragma once
// What `syncbisim replay` prints of a replayed trace (checker/trace_replay.h) besides the text of
// render_replay: the replay/1 JSON document (docs/schema/replay.schema.json) and the exit status.
// The command and the public API's replay() both use these, so the two cannot disagree.
#include <nlohmann/json.hpp>

#include "checker/program_pair.h"
#include "checker/trace_replay.h"

namespace syncbisim::checker {

nlohmann::json replay_json(const ProgramPair& pair, const ReplayResult& r);

// 2 when the trace does not fit the pair, 1 when a violation is at its end, 0 when there is none
// (the pair no longer shows it).
int replay_status(const ReplayResult& r);

}  // namespace syncbisim::checker
