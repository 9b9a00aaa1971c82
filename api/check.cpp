// check() of the public API: the differential bisimulation check (docs/checker.md).
#include <nlohmann/json.hpp>

#include <algorithm>

#include "allocator/closed_form.h"
#include "api/detail/program_data.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/report.h"
#include "checker/trace_view.h"

namespace syncbisim {

namespace {

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

std::string dependency_label(const nlohmann::json& d) {
  std::string s = d["producer"].get<std::string>() + " -> " + d["consumer"].get<std::string>();
  if (!d["distance"].empty()) {
    s += " {";
    bool first = true;
    for (const auto& [loop, k] : d["distance"].items()) {
      s += (first ? "" : ", ") + loop + ": " + std::to_string(k.get<std::uint64_t>());
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
  out.trace = api::detail::trace_steps(j["trace"]);
  return out;
}

}  // namespace

namespace api::detail {

std::vector<TraceStep> trace_steps(const nlohmann::json& steps) {
  std::vector<TraceStep> out;
  for (const auto& st : steps) {
    TraceStep t{text_of(st, "step"), text_of(st, "engine"), text_of(st, "instr"), ""};
    if (st.contains("loop")) t.instr = text_of(st, "loop");
    if (st.contains("cond")) t.instr = text_of(st, "cond");
    if (st.contains("trip")) t.value = std::to_string(st["trip"].get<std::uint64_t>());
    if (st.contains("taken")) t.value = text_of(st, "taken");
    out.push_back(std::move(t));
  }
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
  const Program matched = api::detail::matched_spec(spec, impl);  // an unrolling impl: the spec unrolled
  semantics::Options so;
  so.fuse_commit = options.reduction;
  so.widths = api::detail::widths(options.register_bits, options.semaphore_bits);
  auto pair = checker::ProgramPair::make(matched.data().program, impl.data().program,
                                         checker::PairOptions{so, options.max_trip});
  if (!pair) api::detail::raise(pair.error(), impl.data().name);
  const checker::CheckOptions o{
      .reduction = options.reduction,
      .max_states = options.max_states,
      .max_seconds = options.max_seconds,
      .state_store = internal(options.state_store),
      .walks = options.random_walks,
      .seed = options.seed,
      .depth = options.depth};
  const auto& both = (*pair)->lockstep();
  const auto r = checker::check(**pair, o);
  // As `check` does: a mismatch names the per-loop closed form of its dependency.
  checker::ReportHints hints;
  if (std::any_of(r.violations.begin(), r.violations.end(), [](const checker::Violation& v) {
        return v.kind == checker::ViolationKind::UnderSync || v.kind == checker::ViolationKind::OverSync;
      }))
    hints.closed_forms = allocator::per_loop_closed_forms(matched.data().program, (*pair)->spec_index());
  const auto j = checker::render_json(both, matched.data().program, r, hints);
  CheckResult out{.verdict = verdict_of(r.verdict),
                  .exhaustive = r.exhaustive,
                  .limit = r.limit,
                  .states = r.states,
                  .transitions = r.transitions,
                  .seconds = r.seconds,
                  .text = checker::render_text(both, matched.data().program, r, hints),
                  .json = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"};
  for (std::size_t i = 0; i < r.violations.size(); ++i)
    out.violations.push_back(violation_of(j["violations"][i], r.violations[i], both));
  return out;
}

}  // namespace syncbisim
