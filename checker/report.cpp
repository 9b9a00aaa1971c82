#include "checker/report.h"

#include "checker/mismatch_fix.h"
#include "checker/trace_view.h"
#include "model/decimal.h"
#include "semantics/random_run.h"

namespace syncbisim::checker {

namespace {

std::string headline(const semantics::CompiledProgram& p, const semantics::CompiledProgram& ip, const Violation& v) {
  std::string out = to_string(v.kind);
  out += " on " + p.engines[v.engine];
  if (v.instr) out += " at " + p.instrs[*v.instr].name;
  if (v.kind == ViolationKind::Overflow) {
    using semantics::OverflowKind;
    if (v.overflow.kind == OverflowKind::Semaphore) return out + " of semaphore " + ip.semaphores[v.overflow.sem];
    return out + " at [" + ip.regops[v.overflow.regop].text + "]";
  }
  if (v.kind != ViolationKind::Deadlock && !v.mismatch.spec_checks.empty()) {
    const auto& c = v.mismatch.spec_checks.front();
    if (c.target.size() > 1) out += " " + named_vector(p, p.deps[c.dep], iteration_of(p.deps[c.dep], c));
  }
  return out;
}

// The trace's last row: the step where the two sides part, or the engines that are stuck.
TraceOptions closing_rows(const semantics::CompiledProgram& sp, const semantics::CompiledProgram& ip,
                          const Violation& v) {
  TraceOptions o;
  if (v.kind == ViolationKind::Overflow) {
    o.closing_label = "overflow";
    o.closing.push_back({v.engine, overflow_row(ip, v.overflow)});
  } else if (v.kind == ViolationKind::Deadlock) {
    o.closing_label = "stuck";
    for (auto e : v.stuck) o.closing.push_back({e, v.spec_deadlocks_too ? "stuck (spec too)" : "stuck (impl only)"});
  } else {
    o.closing.push_back({v.engine, parting_text(sp, v.mismatch)});
  }
  return o;
}

// The same as the trace's last element in JSON (docs/schema/trace.schema.json: "part", "stuck" and
// "overflow").
nlohmann::json closing_json(const semantics::CompiledProgram& sp, const semantics::CompiledProgram& ip,
                            const Violation& v) {
  if (v.kind == ViolationKind::Overflow) {
    auto j = overflow_json(ip, v.overflow);
    j["step"] = "overflow";
    return j;
  }
  if (v.kind == ViolationKind::Deadlock) {
    nlohmann::json engines = nlohmann::json::array();
    for (auto e : v.stuck) engines.push_back(sp.engines[e]);
    return {{"step", "stuck"}, {"engines", engines}, {"spec_deadlocks_too", v.spec_deadlocks_too}};
  }
  return parting_json(sp, v.mismatch);
}

// The closed form of the dependency that decides a mismatch (the first not satisfied for an
// under-sync, else the first: as mismatch_to_json picks it), or "".
std::string closed_form_of(const semantics::CompiledProgram& sp, const Violation& v, const ReportHints& hints) {
  if (v.kind == ViolationKind::Overflow || v.kind == ViolationKind::Deadlock) return "";
  const auto* pick = deciding_check(v.mismatch);
  if (!pick) return "";
  const auto index = sp.deps[pick->dep].index;
  return index < hints.closed_forms.size() ? hints.closed_forms[index] : "";
}

nlohmann::json violation_json(const semantics::Lockstep& both, const model::Program& spec, const Violation& v,
                              const ReportHints& hints) {
  const auto& sp = both.spec().program();
  const auto& ip = both.impl().program();
  nlohmann::json j;
  if (v.kind == ViolationKind::Overflow) {
    j["kind"] = "overflow";
    j["engine"] = sp.engines[v.engine];
    j["instr"] = nullptr;
    j["dependency"] = nullptr;
    j["overflow"] = overflow_json(ip, v.overflow);
  } else if (v.kind == ViolationKind::Deadlock) {
    j["kind"] = "deadlock";
    j["engine"] = sp.engines[v.engine];
    j["instr"] = v.instr ? nlohmann::json(sp.instrs[*v.instr].name) : nlohmann::json(nullptr);
    j["spec_deadlocks_too"] = v.spec_deadlocks_too;
    if (v.spec_search_cut) j["spec_search_cut"] = true;
    j["stuck"] = nlohmann::json::array();
    for (auto e : v.stuck) j["stuck"].push_back(sp.engines[e]);
    j["dependency"] = nullptr;
  } else {
    j = mismatch_to_json(sp, ip, spec, v.mismatch);
    if (const auto form = closed_form_of(sp, v, hints); !form.empty()) j["closed_form"] = form;
  }
  auto trace = nlohmann::json::array();
  for (const auto& st : v.trace) trace.push_back(step_to_json(ip, st));
  trace.push_back(closing_json(sp, ip, v));
  j["trace"] = std::move(trace);
  return j;
}

}  // namespace

std::string render_text(const semantics::Lockstep& both, const model::Program&, const CheckResult& r,
                        const ReportHints& hints) {
  const auto& sp = both.spec().program();
  const auto& ip = both.impl().program();
  std::string out = std::string(to_string(r.verdict)) + "\n";
  out += std::to_string(r.states) + " states, " + std::to_string(r.transitions) + " transitions, " +
         model::fixed(r.seconds, 3) + " s, " + (r.exhaustive ? "exhaustive" : "not exhaustive");
  if (!r.limit.empty()) out += " (limit: " + r.limit + ")";
  out += "\n";
  for (std::size_t i = 0; i < r.violations.size(); ++i) {
    const auto& v = r.violations[i];
    out += "\nviolation " + std::to_string(i + 1) + ": " + headline(sp, ip, v) + "\n";
    if (v.kind == ViolationKind::Overflow) {
      out += "  " + describe_overflow(ip, v.overflow) + "\n";
    } else if (v.kind == ViolationKind::Deadlock) {
      if (v.spec_search_cut)
        out += "  unknown whether the spec deadlocks here too: its own search was cut (see the limit)\n";
      else
        out += v.spec_deadlocks_too
                   ? "  the spec deadlocks here too: the dependency graph or the control flow is at fault\n"
                   : "  only the implementation deadlocks: over-synchronization\n";
      out += "  stuck:";
      for (auto e : v.stuck) out += " " + sp.engines[e];
      out += "\n";
    } else {
      std::string why = describe_mismatch(sp, ip, v.mismatch);
      if (const auto form = closed_form_of(sp, v, hints); !form.empty())
        why += "\n  closed form (allocate --strategy per-loop): " + form;
      std::string indented = "  ";
      for (char c : why) {
        indented += c;
        if (c == '\n') indented += "  ";
      }
      out += indented + "\n";
    }
    out += "  shortest trace (" + std::to_string(v.trace.size()) + " steps; then " +
           (v.kind == ViolationKind::Overflow ? "the value overflows" : "the two sides part") + "):\n";
    std::string cols = render_columns(ip, semantics::replay_lockstep(both, v.trace), closing_rows(sp, ip, v));
    std::string indented = "    ";
    for (std::size_t k = 0; k < cols.size(); ++k) {
      indented += cols[k];
      if (cols[k] == '\n' && k + 1 < cols.size()) indented += "    ";
    }
    out += indented;
  }
  return out;
}

nlohmann::json render_json(const semantics::Lockstep& both, const model::Program& spec, const CheckResult& r,
                           const ReportHints& hints) {
  nlohmann::json j;
  j["syncbisim"] = "check/1";  // docs/schema/check.schema.json
  j["verdict"] = to_string(r.verdict);
  j["exhaustive"] = r.exhaustive;
  j["states"] = r.states;
  j["transitions"] = r.transitions;
  j["seconds"] = r.seconds;
  j["bytes"] = r.bytes;
  if (!r.limit.empty()) j["limit"] = r.limit;
  j["violations"] = nlohmann::json::array();
  for (const auto& v : r.violations) j["violations"].push_back(violation_json(both, spec, v, hints));
  return j;
}

nlohmann::json traces_json(const semantics::Lockstep& both, const CheckResult& r) {
  const auto& ip = both.impl().program();
  nlohmann::json j;
  j["syncbisim"] = "traces/1";  // docs/schema/trace.schema.json
  j["violations"] = nlohmann::json::array();
  for (const auto& v : r.violations) {
    nlohmann::json one;
    one["kind"] = to_string(v.kind);
    one["engine"] = ip.engines[v.engine];
    if (v.instr) one["instr"] = ip.instrs[*v.instr].name;
    one["trace"] = events_to_json(ip, semantics::replay_lockstep(both, v.trace));
    one["trace"].push_back(closing_json(both.spec().program(), ip, v));
    j["violations"].push_back(std::move(one));
  }
  return j;
}

}  // namespace syncbisim::checker
