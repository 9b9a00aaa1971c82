#include "cli/footprint_report.h"

#include <nlohmann/json.hpp>

#include <iostream>

#include "allocator/allocate.h"
#include "latency/judge.h"
#include "model/quote.h"

namespace syncbisim::cli {

std::optional<FootprintJudgement> judge_footprints(const formats::LoadedProgram& spec) {
  if (!spec.program.has_footprints()) return std::nullopt;
  FootprintJudgement j;
  j.kernel = footprint::Kernel::of(spec.program, spec.index);
  j.derivation = footprint::derive(j.kernel);
  j.comparison = footprint::compare(j.kernel, spec.program.deps, j.derivation);
  return j;
}

namespace {
// The makespan of the spec with `graph`, allocated per loop, on the timing model.
std::optional<std::uint64_t> makespan_with(const model::Program& spec, const std::vector<model::Dependency>& graph) {
  auto p = spec;
  p.deps = graph;
  auto ix = model::ProgramIndex::build(p);
  if (!ix) return std::nullopt;
  allocator::Options o;
  o.strategy = allocator::Strategy::PerLoop;
  auto a = allocator::allocate(p, *ix, o);
  if (!a) return std::nullopt;
  return latency::timing_judge(p, *ix)(a->impl);
}
}  // namespace

void price_over_synchronized(footprint::Comparison& c, const footprint::Derivation& derived,
                             const formats::LoadedProgram& spec) {
  if (c.over_synchronized.empty()) return;
  const auto& written = spec.program.deps;
  const auto base = makespan_with(spec.program, written);
  for (auto& f : c.over_synchronized) {
    if (f.index >= written.size()) continue;
    const auto& w = written[f.index];
    std::vector<model::Dependency> variant;
    for (std::size_t i = 0; i < written.size(); ++i)
      if (i != f.index) variant.push_back(written[i]);
    for (const auto& d : derived.deps)
      if (d.dep.producer == w.producer && d.dep.consumer == w.consumer) variant.push_back(d.dep);
    const auto better = makespan_with(spec.program, variant);
    if (!base || !better) {
      f.message += "; its price could not be timed (an allocation or the timing model failed)";
      continue;
    }
    const auto cycles = static_cast<std::int64_t>(*base) - static_cast<std::int64_t>(*better);
    f.message += "; price on the timing model: " + std::to_string(cycles) + " cycles (makespan " +
                 std::to_string(*base) + " against " + std::to_string(*better) +
                 " with the derived distance, per-loop allocations at the kernel's sim trips)";
  }
}

std::string derivation_text(const footprint::Derivation& d) {
  std::string out;
  std::size_t implied = 0;
  for (const auto& x : d.deps) {
    out += (x.implied_by.empty() ? "dep " : "implied: dep ") + footprint::dependency_text(x.dep);
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

nlohmann::json derivation_json(const footprint::Derivation& d) {
  nlohmann::json deps = nlohmann::json::array();
  for (const auto& x : d.deps) {
    nlohmann::json why = nlohmann::json::array();
    for (const auto& w : x.why)
      why.push_back({{"hazard", footprint::to_string(w.hazard)},
                     {"producer_access", w.producer_access},
                     {"consumer_access", w.consumer_access},
                     {"producer_at", w.producer_at},
                     {"consumer_at", w.consumer_at},
                     {"element", w.element}});
    nlohmann::json dist = nlohmann::json::object();
    for (const auto& [l, k] : x.dep.distance) dist[l] = k;
    for (const auto& l : x.dep.every) dist[l] = "*";
    nlohmann::json j{{"producer", x.dep.producer}, {"consumer", x.dep.consumer}, {"distance", dist},
                     {"carried_by", x.carried_by}, {"uniform", x.uniform}, {"why", why}};
    if (!x.distances.empty()) j["distances"] = x.distances;
    if (!x.over_synchronizes.empty()) j["over_synchronizes"] = x.over_synchronizes;
    if (!x.implied_by.empty()) j["implied_by"] = x.implied_by;
    deps.push_back(std::move(j));
  }
  return {{"dependencies", deps}, {"kept", d.kept()}, {"implied", d.deps.size() - d.kept()}, {"undecided", d.undecided}};
}

std::string comparison_text(const footprint::Comparison& c) {
  std::string out;
  if (c.deadlock && c.races.empty()) {
    out += "inconclusive: the written graph waits in a cycle at trips " + c.deadlock_at +
           " (a spec deadlock: `check` reports it); its conflicts there are not judged\n";
  } else switch (c.verdict) {
    case footprint::GraphVerdict::Race:
      out += "race: the written graph leaves " + std::to_string(c.race_pairs) +
             " conflicting instance pairs unordered at the trips tried\n";
      break;
    case footprint::GraphVerdict::Inconclusive:
      out += "inconclusive: no race at the trips tried, but the written graph was not shown to order every conflict "
             "for every trip count\n";
      break;
    default: out += "ordered: the written graph orders every conflict of the footprints, for every trip count\n";
  }
  for (const auto& r : c.races)
    out += "  race " + r.producer + " -> " + r.consumer + " at trips " + r.trips + ": " + r.description +
           (r.missing ? " (no written dependency between them)" : "") +
           "\n    fix: " + r.fix + "\n";
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

nlohmann::json comparison_json(const footprint::Comparison& c) {
  nlohmann::json races = nlohmann::json::array();
  for (const auto& r : c.races)
    races.push_back({{"producer", r.producer}, {"consumer", r.consumer}, {"trips", r.trips},
                     {"conflict", r.description}, {"missing", r.missing}, {"fix", r.fix}});
  const auto findings = [](const std::vector<footprint::GraphFinding>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& f : v) a.push_back({{"dependency", f.dependency}, {"message", f.message}});
    return a;
  };
  return {{"verdict", footprint::to_string(c.verdict)},
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

int print_race(const footprint::Comparison& c, bool json) {
  if (json) std::cout << nlohmann::json{{"verdict", "race"}, {"footprints", comparison_json(c)}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else std::cout << comparison_text(c);
  return 1;
}

int comparison_status(const footprint::Comparison& c) {
  switch (c.verdict) {
    case footprint::GraphVerdict::Race: return 1;
    case footprint::GraphVerdict::Inconclusive: return 3;
    default: return 0;
  }
}

}  // namespace syncbisim::cli
