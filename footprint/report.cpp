#include "footprint/report.h"

#include <map>

namespace syncbisim::footprint {

std::string derivation_text(const Derivation& d) {
  std::string out;
  std::size_t implied = 0;
  for (const auto& x : d.deps) {
    out += (x.implied_by.empty() ? "dep " : "implied: dep ") + dependency_text(x.dep);
    if (!x.why.empty()) out += "\n  because " + x.why.front().to_string(x.dep.producer, x.dep.consumer);
    for (std::size_t i = 1; i < x.why.size(); ++i)
      out += "\n  and " + x.why[i].to_string(x.dep.producer, x.dep.consumer);
    if (!x.distances.empty()) out += "\n  distances " + x.distances;
    if (!x.over_synchronizes.empty()) out += "\n  over-synchronizes: " + x.over_synchronizes;
    if (!x.implied_by.empty()) {
      out += "\n  implied by " + x.implied_by + " for every trip count (dropped)";
      ++implied;
    }
    out += "\n";
  }
  out += std::to_string(d.kept()) + " dependencies derived, " + std::to_string(implied) +
         " more implied by them (waits the reduction saved)\n";
  for (const auto& u : d.undecided) out += "undecided: " + u + "\n";
  return out;
}

nlohmann::json derivation_json(const Derivation& d) {
  nlohmann::json deps = nlohmann::json::array();
  for (const auto& x : d.deps) {
    nlohmann::json why = nlohmann::json::array();
    for (const auto& w : x.why)
      why.push_back({{"hazard", to_string(w.hazard)},
                     {"producer_access", w.producer_access},
                     {"consumer_access", w.consumer_access},
                     {"producer_at", w.producer_at},
                     {"consumer_at", w.consumer_at},
                     {"element", w.element}});
    nlohmann::json dist = nlohmann::json::object();
    for (const auto& [l, k] : x.dep.distance) dist[l] = k;
    for (const auto& l : x.dep.every) dist[l] = "*";
    nlohmann::json j{{"producer", x.dep.producer}, {"consumer", x.dep.consumer}, {"distance", dist},
                     {"carried_by", x.carried_by}, {"uniform", x.uniform},       {"why", why}};
    if (!x.distances.empty()) j["distances"] = x.distances;
    if (!x.over_synchronizes.empty()) j["over_synchronizes"] = x.over_synchronizes;
    if (!x.implied_by.empty()) j["implied_by"] = x.implied_by;
    deps.push_back(std::move(j));
  }
  return {
      {"dependencies", deps}, {"kept", d.kept()}, {"implied", d.deps.size() - d.kept()}, {"undecided", d.undecided}};
}

std::string with_reasons(const std::string& text, const Derivation& d) {
  std::map<std::string, std::string> why;
  for (const auto& x : d.deps)
    if (x.implied_by.empty() && !x.why.empty())
      why.emplace("dep " + dependency_text(x.dep), x.why.front().to_string(x.dep.producer, x.dep.consumer));
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const auto line = text.substr(start, end - start);
    out += line;
    if (const auto it = why.find(line); it != why.end()) out += "  # " + it->second;
    out += "\n";
    start = end + 1;
  }
  return out;
}

std::string comparison_text(const Comparison& c) {
  std::string out;
  if (c.deadlock && c.races.empty()) {
    out += "inconclusive: the written graph waits in a cycle at trips " + c.deadlock_at +
           " (a spec deadlock: `check` reports it); its conflicts there are not judged\n";
  } else switch (c.verdict) {
      case GraphVerdict::Race:
        out += "race: the written graph leaves " + std::to_string(c.race_pairs) +
               " conflicting instance pairs unordered at the trips tried\n";
        break;
      case GraphVerdict::Inconclusive:
        out +=
            "inconclusive: no race at the trips tried, but the written graph was not shown to order every conflict "
            "for every trip count\n";
        break;
      default: out += "ordered: the written graph orders every conflict of the footprints, for every trip count\n";
    }
  for (const auto& r : c.races)
    out += "  race " + r.producer + " -> " + r.consumer + " at trips " + r.trips + ": " + r.description +
           (r.missing ? " (no written dependency between them)" : "") + "\n    fix: " + r.fix + "\n";
  for (const auto& s : c.not_shown) out += "  not shown to be ordered for every trip count: dep " + s + "\n";
  for (const auto& f : c.unjustified) out += "  warning: dep " + f.dependency + ": " + f.message + "\n";
  for (const auto& f : c.over_synchronized) out += "  over-synchronized: dep " + f.dependency + ": " + f.message + "\n";
  for (const auto& f : c.implied) out += "  implied: dep " + f.dependency + ": " + f.message + "\n";
  if (c.deadlock && !c.races.empty())
    out += "  the written graph also waits in a cycle at trips " + c.deadlock_at + " (a spec deadlock)\n";
  for (const auto& l : c.limits) out += "  limit: " + l + "\n";
  if (c.every_execution && !c.plans.empty()) out += "  trips tried: " + c.plans.front() + "\n";
  else
    out += "  trips tried: " + std::to_string(c.plans.size()) + " plans of one trip per loop" +
           (c.plans.empty() ? std::string() : " (first: " + c.plans.front() + ")") + "\n";
  out += "  (iterations are counted from 0, as in the footprints' indices)\n";
  return out;
}

nlohmann::json comparison_json(const Comparison& c) {
  nlohmann::json races = nlohmann::json::array();
  for (const auto& r : c.races)
    races.push_back({{"producer", r.producer},
                     {"consumer", r.consumer},
                     {"trips", r.trips},
                     {"conflict", r.description},
                     {"missing", r.missing},
                     {"fix", r.fix}});
  const auto findings = [](const std::vector<GraphFinding>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& f : v) a.push_back({{"dependency", f.dependency}, {"message", f.message}});
    return a;
  };
  return {{"verdict", to_string(c.verdict)},
          {"race_pairs", c.race_pairs},
          {"races", races},
          {"not_shown", c.not_shown},
          {"unjustified", findings(c.unjustified)},
          {"over_synchronized", findings(c.over_synchronized)},
          {"implied", findings(c.implied)},
          {"deadlock", c.deadlock},
          {"limits", c.limits},
          {"plans", c.plans}};
}

int comparison_status(const Comparison& c) {
  switch (c.verdict) {
    case GraphVerdict::Race: return 1;
    case GraphVerdict::Inconclusive: return 3;
    default: return 0;
  }
}

}  // namespace syncbisim::footprint
