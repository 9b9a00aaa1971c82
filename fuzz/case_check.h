#pragma once
// One fuzz case, end to end: validate a spec and an impl (index, correspondence), compile them,
// check the lock-step product exhaustively under a state limit, and name the failure found.
// An inconclusive check (a limit hit) is reported as such, never as a failure or a pass.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/check_result.h"
#include "fuzz/failure.h"
#include "model/program.h"

namespace syncbisim::fuzz {

struct CaseOptions {
  std::uint64_t max_states = 200000;
  double max_seconds = 0;
  Counts policy = Counts::UnderSyncOnly;
  bool want_traces = false;  // fill CaseResult::traces (checker::traces_json) and report
};

struct CaseResult {
  std::string invalid;       // non-empty: the pair does not load or does not correspond (why)
  bool allocatable = false;  // every dependency of the spec is allocatable (only computed when it matters)
  checker::CheckResult check;
  std::optional<ViolationAt> failure;  // the first counted violation
  bool target_shown = false;           // the target passed to check_case is among the counted violations
  nlohmann::json traces;               // with want_traces
  std::string report;                  // with want_traces: checker::render_text

  bool inconclusive() const { return invalid.empty() && !failure && !check.exhaustive; }
};

CaseResult check_case(const model::Program& spec, const model::Program& impl, const CaseOptions& options,
                      const ViolationAt* target = nullptr);

// Whether every dependency of a valid spec is allocatable (docs/semantics.md §6).
bool all_allocatable(const model::Program& spec, const model::ProgramIndex& ix);

}  // namespace syncbisim::fuzz
