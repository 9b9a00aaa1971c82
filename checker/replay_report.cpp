#include "checker/replay_report.h"

#include "checker/trace_view.h"

namespace syncbisim::checker {

nlohmann::json replay_json(const ProgramPair& pair, const ReplayResult& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : r.steps) {
    auto j = step_to_json(pair.impl_code(), s.step);
    j["number"] = s.number;
    if (!s.checks.empty()) j["checks"] = s.checks;
    j["changes"] = s.changes;
    steps.push_back(std::move(j));
  }
  nlohmann::json out{{"syncbisim", "replay/1"}, {"fits", r.misfit.empty()}, {"steps", steps}};
  if (!r.misfit.empty()) out["misfit"] = r.misfit;
  out["violations"] = nlohmann::json::array();
  for (const auto& v : r.violations) out["violations"].push_back(to_string(v.kind));
  if (r.expected) out["reproduced"] = r.expected_shown;
  return out;
}

int replay_status(const ReplayResult& r) {
  if (!r.misfit.empty()) return 2;
  return r.violations.empty() ? 0 : 1;
}

}  // namespace syncbisim::checker
