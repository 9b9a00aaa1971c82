#include "footprint/compare.h"

#include <map>
#include <set>

namespace syncbisim::footprint {

const char* to_string(GraphVerdict v) {
  switch (v) {
    case GraphVerdict::Ordered: return "ordered";
    case GraphVerdict::Race: return "race";
    default: return "inconclusive";
  }
}

namespace {

// The derived dependency that orders a conflict between these two statements carried by this
// loop ("" for the same iteration), if the derivation has one.
const DerivedDependency* derived_for(const Derivation& d, const std::string& producer, const std::string& consumer,
                                     const std::string& carried_by) {
  for (const auto& x : d.deps)
    if (x.dep.producer == producer && x.dep.consumer == consumer && x.carried_by == carried_by) return &x;
  return nullptr;
}

// The loop that carries a conflict: the first common loop whose iterations differ.
std::string carrier(const Kernel& k, const Execution& x, const Conflict& c) {
  const auto& a = x.instances[c.earlier];
  const auto& b = x.instances[c.later];
  const auto common = k.common_loops(k.statements[a.statement], k.statements[b.statement]);
  for (std::size_t j = 0; j < common.size(); ++j)
    if (a.iter[j] != b.iter[j]) return k.loops[common[j]].name;
  return "";
}

}  // namespace

Comparison compare(const Kernel& k, const std::vector<model::Dependency>& written, const Derivation& derived,
                   const CompareOptions& options) {
  Comparison out;
  for (const auto& u : derived.undecided) out.limits.push_back("ISL: " + u);
  // Races at concrete trips: the enumerator, independent of the derivation. Every execution
  // when there are few enough (then "for every trip count" is decided here, exactly), else
  // the small plans of one trip per loop.
  const auto graph = graph_of(k, written);
  std::set<std::pair<std::string, std::string>> raced;
  auto all = all_executions(k, options.max_executions, options.max_instances);
  out.every_execution = all.has_value();
  std::vector<Execution> runs;
  if (all) {
    runs = std::move(*all);
    out.plans.push_back("every execution of the kernel (" + std::to_string(runs.size()) + ")");
  } else {
    out.limits.push_back("more than " + std::to_string(options.max_executions) +
                         " executions (or one too large): races looked for at one trip per loop");
    for (const auto& plan : small_plans(k, options.max_trip, options.max_plans)) {
      auto x = enumerate(k, plan, options.max_instances);
      if (!x) {
        out.limits.push_back("trips " + plan.to_string(k) + ": more than " + std::to_string(options.max_instances) +
                             " instances, not enumerated");
        continue;
      }
      out.plans.push_back(plan.to_string(k));
      runs.push_back(std::move(*x));
    }
  }
  for (const auto& x : runs) {
    const auto o = order_conflicts(k, x, graph);
    if (o.deadlock) {
      // A cycle of waits: nothing after it retires, so its conflicts are no races of their own.
      if (!out.deadlock) out.deadlock_at = x.plan.to_string(k);
      out.deadlock = true;
      continue;
    }
    out.race_pairs += o.unordered.size();
    for (auto ci : o.unordered) {
      const auto& c = x.conflicts[ci];
      const auto& P = k.statements[x.instances[c.earlier].statement];
      const auto& C = k.statements[x.instances[c.later].statement];
      if (!raced.insert({P.name, C.name}).second) continue;
      Race r;
      r.description = describe(k, x, c);
      r.trips = x.plan.to_string(k);
      r.producer = P.name;
      r.consumer = C.name;
      std::string written_between;
      for (const auto& w : written)
        if (w.producer == P.name && w.consumer == C.name) {
          r.missing = false;
          written_between += (written_between.empty() ? "" : "; ") + dependency_text(w);
        }
      const auto* fix = derived_for(derived, P.name, C.name, carrier(k, x, c));
      const std::string want = fix ? "dep " + dependency_text(fix->dep) : "a dependency " + P.name + " -> " + C.name;
      // The written one between them orders other conflicts (another carrying loop): add beside it.
      r.fix = r.missing ? "add " + want : "add " + want + " (the written " + written_between + " does not order it)";
      out.races.push_back(std::move(r));
    }
  }
  // Written dependencies against the derived graph.
  const ImplicationIndex index(k, written);
  // By (producer, consumer): two dependencies imply each other only when they join the same two
  // instructions (implies(): otherwise one end moves strictly along its engine, which cannot go
  // both ways). Scanning every pair was quadratic: 12 s on a kernel of 1,000 loop nests.
  using Pair = std::pair<std::string, std::string>;
  std::map<Pair, std::vector<const DerivedDependency*>> derived_of;
  for (const auto& d : derived.deps) derived_of[{d.dep.producer, d.dep.consumer}].push_back(&d);
  std::map<Pair, std::vector<std::size_t>> written_of;
  for (std::size_t j = 0; j < written.size(); ++j) written_of[{written[j].producer, written[j].consumer}].push_back(j);
  for (std::size_t i = 0; i < written.size(); ++i) {
    const auto& w = written[i];
    const auto text = dependency_text(w);
    static const std::vector<const DerivedDependency*> kNone;
    const auto found = derived_of.find({w.producer, w.consumer});
    const auto& same_pair = found == derived_of.end() ? kNone : found->second;
    if (same_pair.empty()) {
      out.unjustified.push_back({text,
                                 "no conflict between " + w.producer + " and " + w.consumer +
                                     " justifies it (it may order others through them: a proxy)",
                                 i});
    } else {
      // Stricter than every conflict needs: each derived one of the pair implied by it and the
      // written one implied by none of them.
      bool needed = false, stricter = true;
      for (const auto* d : same_pair) {
        needed = needed || implies(k, d->dep, w);
        stricter = stricter && implies(k, w, d->dep);
      }
      if (!needed && stricter) {
        std::string want;
        for (const auto* d : same_pair) want += (want.empty() ? "" : "; ") + dependency_text(d->dep);
        out.over_synchronized.push_back({text, "waits more than the conflicts need (" + want + "): over-synchronized, safe",
                                         i});
      }
    }
    // Implied by the others (an equal one counts once: the later of two equal ones is reported).
    const auto by = index.implied_by(w, i);
    bool equal_earlier_only = false;
    for (const auto j : written_of.at({w.producer, w.consumer}))
      if (j > i) equal_earlier_only = equal_earlier_only || (implies(k, written[j], w) && implies(k, w, written[j]));
    if (!by.empty() && !equal_earlier_only)
      out.implied.push_back({text, "implied by " + by + " for every trip count", i});
  }
  // For every trip count: each kept derived dependency implied by what the written graph orders,
  // its chains included.
  const auto closure = chain_closure(k, written);
  const ImplicationIndex closed(k, closure);
  for (const auto& d : derived.deps) {
    if (!d.implied_by.empty()) continue;
    if (closed.implied_by(d.dep).empty()) out.not_shown.push_back(dependency_text(d.dep));
  }
  // Every execution enumerated and none races: ordered for every trip count, whatever the rules.
  if (out.every_execution && out.races.empty()) out.not_shown.clear();
  if (!out.races.empty()) out.verdict = GraphVerdict::Race;
  else if (out.deadlock || !out.not_shown.empty() || !derived.undecided.empty()) out.verdict = GraphVerdict::Inconclusive;
  return out;
}

}  // namespace syncbisim::footprint
