// check() of the public API: the differential bisimulation check (docs/checker.md), with the parts
// `syncbisim check` adds to the checker's report (an over-synchronization's price, --coverage).
#include <nlohmann/json.hpp>

#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "api/detail/results.h"
#include "checker/coverage.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/report.h"
#include "checker/trace_view.h"
#include "latency/check_report.h"
#include "latency/counterexample_svg.h"

namespace syncbisim {

namespace {

checker::StateStore internal(StateStore s) {
  return s == StateStore::Tree ? checker::StateStore::Tree : checker::StateStore::Flat;
}
StateStore external(checker::StateStore s) {
  return s == checker::StateStore::Tree ? StateStore::Tree : StateStore::Flat;
}

std::string text_of(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}
std::optional<std::uint64_t> number_of(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_number_unsigned()) return j[key].get<std::uint64_t>();
  return std::nullopt;
}

// "I3 -> I2 {A: 2}"; a whole-iteration distance (L=*) is written "*" in the JSON.
std::string dependency_label(const nlohmann::json& d) {
  std::string s = d["producer"].get<std::string>() + " -> " + d["consumer"].get<std::string>();
  if (!d["distance"].empty()) {
    s += " {";
    bool first = true;
    for (const auto& [loop, k] : d["distance"].items()) {
      s += (first ? "" : ", ") + loop + ": " +
           (k.is_string() ? k.get<std::string>() : std::to_string(k.get<std::uint64_t>()));
      first = false;
    }
    s += "}";
  }
  return s;
}

// The violations as the API states them, from the same JSON `check --json` prints (so the two
// never disagree), plus the text the command prints for each.
Violation violation_of(const nlohmann::json& j, const checker::Violation& v, const semantics::Lockstep& both) {
  Violation out;
  out.kind = text_of(j, "kind");
  out.engine = text_of(j, "engine");
  out.instr = text_of(j, "instr");
  if (v.kind == checker::ViolationKind::Overflow) {
    out.description = checker::describe_overflow(both.impl().program(), v.overflow);
  } else if (v.kind == checker::ViolationKind::Deadlock) {
    out.spec_deadlocks_too = v.spec_deadlocks_too;
    out.description = v.spec_deadlocks_too
                          ? "the spec deadlocks here too: the dependency graph or the control flow is at fault"
                          : "only the implementation deadlocks: over-synchronization";
  } else {
    out.description = checker::describe_mismatch(both.spec().program(), both.impl().program(), v.mismatch);
    api::detail::mismatch_fields(j, out);
  }
  out.trace = api::detail::trace_steps(j["trace"]);
  return out;
}

// The coverage's counts with the names the coverage text gives them (checker/coverage.cpp): the
// distance in the spec's loop order, which the JSON object (sorted by loop name) does not keep.
Coverage coverage_of(const checker::Coverage& c, const semantics::Lockstep& both) {
  const auto& sp = both.spec().program();
  const auto& ip = both.impl().program();
  Coverage out;
  out.states = c.states();
  for (std::size_t i = 0; i < c.dependencies().size() && i < sp.deps.size(); ++i) {
    const auto& d = sp.deps[i];
    const auto& n = c.dependencies()[i];
    std::string dist;
    for (std::size_t k = 0; k < d.common.size() && k < d.distance.size(); ++k)
      if (k >= d.whole_from) dist += (dist.empty() ? "" : ", ") + sp.loops[d.common[k]].name + ": *";
      else if (d.distance[k] > 0)
        dist += (dist.empty() ? "" : ", ") + sp.loops[d.common[k]].name + ": " + std::to_string(d.distance[k]);
    const char* finding = n.held > 0 ? "held" : n.owed > 0 ? "owed" : n.reached > 0 ? "never-owed" : "not-reached";
    out.dependencies.push_back(DependencyCoverage{sp.instrs[d.producer].name, sp.instrs[d.consumer].name, dist,
                                                  n.reached, n.owed, n.held, finding});
  }
  for (const auto& w : c.waits()) {
    const auto& in = ip.instrs[w.instr];
    const auto& cw = in.waits[w.index];
    out.waits.push_back(WaitCoverage{ip.engines[in.engine], in.name, ip.semaphores[cw.sem],
                                     cw.reg_threshold ? ip.registers[cw.reg] : std::to_string(cw.value), w.reached,
                                     w.blocked});
  }
  return out;
}

}  // namespace

namespace api::detail {

Verdict verdict_of(checker::Verdict v) {
  switch (v) {
    case checker::Verdict::Bisimilar: return Verdict::Bisimilar;
    case checker::Verdict::OverSynchronized: return Verdict::OverSynchronized;
    case checker::Verdict::UnderSynchronized: return Verdict::UnderSynchronized;
    case checker::Verdict::SpecDeadlock: return Verdict::SpecDeadlock;
    case checker::Verdict::Inconclusive: return Verdict::Inconclusive;
    case checker::Verdict::Overflow: return Verdict::Overflow;
  }
  return Verdict::Inconclusive;
}

std::vector<TraceStep> trace_steps(const nlohmann::json& steps) {
  std::vector<TraceStep> out;
  for (const auto& st : steps) {
    TraceStep t{text_of(st, "step"), text_of(st, "engine"), text_of(st, "instr"), "", text_of(st, "detail")};
    if (st.contains("loop")) t.instr = text_of(st, "loop");
    if (st.contains("cond")) t.instr = text_of(st, "cond");
    if (st.contains("op")) t.instr = text_of(st, "op");  // a run's register operation
    if (st.contains("trip")) t.value = std::to_string(st["trip"].get<std::uint64_t>());
    if (st.contains("taken")) t.value = text_of(st, "taken");
    if (st.contains("position") && st["position"].is_number_unsigned())
      t.value = std::to_string(st["position"].get<std::uint64_t>());
    out.push_back(std::move(t));
  }
  return out;
}

void mismatch_fields(const nlohmann::json& j, Violation& out) {
  out.kind = text_of(j, "kind");
  out.engine = text_of(j, "engine");
  out.instr = text_of(j, "instr");
  if (j.contains("dependency") && j["dependency"].is_object()) out.dependency = dependency_label(j["dependency"]);
  if (j.contains("spec")) {
    out.retired = number_of(j["spec"], "retired");
    out.owed = number_of(j["spec"], "owed");
  }
  if (j.contains("fix")) out.fix = text_of(j["fix"], "text");
  if (j.contains("closed_form")) out.closed_form = text_of(j, "closed_form");
  if (j.contains("impl")) {
    out.semaphore = text_of(j["impl"], "sem");
    out.value = number_of(j["impl"], "value");
    out.threshold = number_of(j["impl"], "threshold");
  }
}

CheckResult check_result(const semantics::Lockstep& both, const checker::CheckResult& r, const nlohmann::json& j,
                         std::string text) {
  CheckResult out;
  out.verdict = verdict_of(r.verdict);
  out.exhaustive = r.exhaustive;
  out.limit = r.limit;
  out.states = r.states;
  out.transitions = r.transitions;
  out.seconds = r.seconds;
  for (std::size_t i = 0; i < r.violations.size(); ++i)
    out.violations.push_back(violation_of(j["violations"][i], r.violations[i], both));
  out.text = std::move(text);
  out.json = formats::json_text(j);
  return out;
}

}  // namespace api::detail

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::Bisimilar: return checker::to_string(checker::Verdict::Bisimilar);
    case Verdict::OverSynchronized: return checker::to_string(checker::Verdict::OverSynchronized);
    case Verdict::UnderSynchronized: return checker::to_string(checker::Verdict::UnderSynchronized);
    case Verdict::SpecDeadlock: return checker::to_string(checker::Verdict::SpecDeadlock);
    case Verdict::Inconclusive: return checker::to_string(checker::Verdict::Inconclusive);
    case Verdict::Overflow: return checker::to_string(checker::Verdict::Overflow);
  }
  return "?";
}

std::string to_string(StateStore s) { return checker::to_string(internal(s)); }

StateStore parse_state_store(const std::string& name) {
  const auto s = checker::parse_state_store(name);
  if (!s) throw Error("", "", "usage", checker::unknown_state_store(name));
  return external(*s);
}

int CheckResult::exit_status() const {
  return verdict == Verdict::Bisimilar ? 0 : verdict == Verdict::Inconclusive ? 3 : 1;
}

CheckResult check(const Program& spec, const Program& impl, const CheckOptions& options) {
  api::detail::require_order(spec, impl);
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  semantics::Options so;
  so.fuse_commit = options.reduction;
  so.widths = api::detail::widths(options.register_bits, options.semaphore_bits);
  const auto [matched, pair] = api::detail::pair_of(spec, impl, checker::PairOptions{so, options.max_trip});
  checker::CheckOptions o{.reduction = options.reduction,
                          .max_states = options.max_states,
                          .max_seconds = options.max_seconds,
                          .state_store = internal(options.state_store),
                          .walks = options.random_walks,
                          .seed = options.seed,
                          .depth = options.depth};
  const auto& both = pair->lockstep();
  // check --coverage: the explorer counts every state it visits (and then runs on one thread).
  std::optional<checker::Coverage> coverage;
  if (options.coverage) {
    coverage.emplace(both);
    o.coverage = &*coverage;
  }
  const auto r = checker::check(*pair, o);
  // What `check` prints (latency/check_report.h): the closed forms, the price, the coverage.
  const auto report = latency::check_report(both, matched.data().program, matched.data().index, impl.data().program,
                                            impl.data().index, r, coverage ? &*coverage : nullptr);
  const auto& j = report.json;
  auto text = report.text + (coverage ? "\n" + report.coverage : "");
  auto out = api::detail::check_result(both, r, j, std::move(text));
  out.traces = formats::json_text(checker::traces_json(both, r));
  if (options.svg)
    if (auto svg = latency::counterexample_svg(both, r)) out.svg = std::move(*svg);
  if (coverage) {
    out.coverage = coverage_of(*coverage, both);
    out.coverage_text = report.coverage;
    out.coverage_json = formats::json_text(j["coverage"]);
  }
  return out;
}

}  // namespace syncbisim
