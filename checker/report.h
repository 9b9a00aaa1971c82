#pragma once
// A check's result for people (verdict first, one word, then each violation with its numbers and
// its trace in per-engine columns) and for tools (the JSON of docs/formats.md "check --json").
#include <string>

#include <nlohmann/json.hpp>

#include "checker/check_result.h"
#include "model/program.h"

namespace syncbisim::checker {

std::string render_text(const semantics::Lockstep& both, const model::Program& spec, const CheckResult& r);
nlohmann::json render_json(const semantics::Lockstep& both, const model::Program& spec, const CheckResult& r);
// {"violations": [{"kind", "engine", "instr", "trace": [every event, internal ones included]}]}
nlohmann::json traces_json(const semantics::Lockstep& both, const CheckResult& r);

}  // namespace syncbisim::checker
