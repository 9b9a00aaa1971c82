#include "prover/report.h"

namespace syncbisim::prover {

std::string render_text(const ProveResult& r) {
  std::string out = std::string(to_string(r.verdict)) + "\n";
  for (const auto& c : r.consumers) {
    out += c.instr + " (" + c.engine + "): " + to_string(c.answer);
    if (!c.reason.empty()) out += ": " + c.reason;
    out += "\n";
  }
  return out;
}

nlohmann::json render_json(const ProveResult& r) {
  nlohmann::json out{{"verdict", to_string(r.verdict)}, {"seconds", r.seconds}};
  auto& cs = out["consumers"] = nlohmann::json::array();
  for (const auto& c : r.consumers) {
    nlohmann::json j{{"instr", c.instr}, {"engine", c.engine}, {"answer", to_string(c.answer)}, {"seconds", c.seconds}};
    if (!c.reason.empty()) j["reason"] = c.reason;
    if (!c.model.trips.empty() || !c.model.retired.empty())
      j["counterexample"] = {{"trips", c.model.trips}, {"iteration", c.model.iteration}, {"retired", c.model.retired}};
    if (c.answer == Answer::Refuted)
      j["violation"] = {{"kind", c.replay.kind},
                        {"description", c.replay.description},
                        {"states", c.replay.states},
                        {"trace", c.replay.trace}};
    cs.push_back(std::move(j));
  }
  return out;
}

}  // namespace syncbisim::prover
