#pragma once
// How a prover result looks to people and to tools (docs/prover.md "Output"), as
// checker/report.h does for a check: used by `prove` and by `check --all-trips`.
#include <string>

#include <nlohmann/json.hpp>

#include "prover/prove.h"

namespace syncbisim::prover {

// The verdict line, one line per consumer, and each refuted property's witness (both sides'
// numbers, the head and tail of its trace in per-engine columns).
// The verdict in words for a person: "proved", "unknown", "refuted" (something unsafe: an
// under-synchronization or an overflow), "safe, not exact" (only over-synchronization refuted).
// JSON keeps the answer (`refuted`) and the exit status is the same.
std::string verdict_words(const ProveResult& r);
std::string render_text(const ProveResult& r);
// A consumer's line without the verdict ("C (E1): safe proved; exact unknown: ...").
std::string consumer_line(const ConsumerResult& c);
// An overflow question's line ("overflow: semaphore s: ..."; "unknown: register r (E1): ...").
std::string overflow_line(const OverflowResult& o);
// A witness: its description and trace head and tail, indented by `indent`.
std::string witness_text(const ProveResult& r, const Witness& w, const std::string& indent);
nlohmann::json render_json(const ProveResult& r);
// {"witnesses": [{"instr", "engine", "property", "kind", "description", "steps", "trace": [every
// event, internal ones included]}]}, as JSON text; after the refuted properties' witnesses, each
// traced overflow as {"kind": "overflow", "engine", "description", "steps", "trace"}, its trace
// closed by the overflow element check writes (docs/schema/trace.schema.json).
std::string traces_json(const ProveResult& r);

}  // namespace syncbisim::prover
