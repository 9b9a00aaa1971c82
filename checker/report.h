#pragma once
// A check's result for people (verdict first, one word, then each violation with its numbers and
// its trace in per-engine columns) and for tools (the JSON of docs/formats.md "`check --json`").
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checker/check_result.h"
#include "model/program.h"

namespace syncbisim::checker {

// What the layers above know and the checker does not: the wait the allocator's closed form gives
// each dependency (allocator/closed_form.h), one string per Program::deps entry ("" for none),
// shown under a mismatch on that dependency. Empty: nothing shown.
struct ReportHints {
  std::vector<std::string> closed_forms;
};

std::string render_text(const semantics::Lockstep& both, const model::Program& spec, const CheckResult& r,
                        const ReportHints& hints = {});
nlohmann::json render_json(const semantics::Lockstep& both, const model::Program& spec, const CheckResult& r,
                           const ReportHints& hints = {});
// {"violations": [{"kind", "engine", "instr", "trace": [every event, internal ones included]}]}
nlohmann::json traces_json(const semantics::Lockstep& both, const CheckResult& r);

}  // namespace syncbisim::checker
