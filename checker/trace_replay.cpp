#include "checker/trace_replay.h"

#include "checker/classifier.h"
#include "checker/trace_view.h"

#include <optional>

namespace syncbisim::checker {

namespace {

using semantics::Step;
using semantics::StepKind;

bool is_visible_name(const std::string& s) { return s == "issue" || s == "retire" || s == "commit" || s == "choose"; }

// The fields that name a visible step in the trace encoding (step_to_json).
bool same_step(const nlohmann::json& want, const nlohmann::json& have) {
  for (const char* key : {"step", "engine", "instr", "loop", "trip", "cond", "taken", "position"}) {
    const bool w = want.contains(key), h = have.contains(key);
    if (w != h) return false;
    if (w && want[key] != have[key]) return false;
  }
  return true;
}

// The step of `steps` that `want` names (the last one, should two). A long run of trip choices
// (a range may have 2^32 values: semantics/steps.h) is not tried value by value: only the trip
// `want` names can match it.
std::optional<Step> matching_step(const semantics::CompiledProgram& ip, const semantics::Steps& steps,
                                  const nlohmann::json& want) {
  constexpr std::uint64_t kTryWhole = 64;
  std::optional<Step> found;
  for (const auto& run : steps.runs()) {
    if (run.count() > kTryWhole) {
      const auto trip = want.find("trip");
      if (trip == want.end() || !trip->is_number_unsigned()) continue;
      const auto v = trip->get<std::uint64_t>();
      if (v < run.first.arg || v - run.first.arg >= run.count()) continue;
      Step st = run.first;
      st.arg = static_cast<std::uint32_t>(v);
      if (same_step(want, step_to_json(ip, st))) found = st;
      continue;
    }
    for (std::uint64_t i = 0; i < run.count(); ++i) {
      Step st = run.first;
      st.arg += static_cast<std::uint32_t>(i);
      if (same_step(want, step_to_json(ip, st))) found = st;
    }
  }
  return found;
}

std::string checks_text(const semantics::Lockstep& both, const semantics::LockstepState& s, semantics::EngineId e) {
  const auto& sp = both.spec().program();
  const auto& ip = both.impl().program();
  std::string spec, impl;
  for (const auto& c : both.spec().explain(s.spec, e)) {
    const auto& d = sp.deps[c.dep];
    spec += (spec.empty() ? "" : ", ") + sp.instrs[d.producer].name + " -> " + sp.instrs[d.consumer].name + " " +
            named_vector(sp, d, iteration_of(d, c)) + ": " +
            (c.underflow ? std::string("nothing owed")
                         : "R(" + sp.instrs[d.producer].name + ") = " + std::to_string(c.retired) + ", owed " +
                               std::to_string(c.owed));
  }
  for (const auto& w : both.impl().explain(s.impl, e))
    impl += (impl.empty() ? "" : ", ") + ip.semaphores[w.sem] + " = " + std::to_string(w.value) +
            " >= " + std::to_string(w.threshold) + (w.holds() ? "" : " (blocks)");
  return "spec: " + (spec.empty() ? "no dependency" : spec) + " | impl: " + (impl.empty() ? "no wait" : impl);
}

// What changed between two states, on both sides.
std::vector<std::string> changes(const semantics::Lockstep& both, const semantics::LockstepState& a,
                                 const semantics::LockstepState& b) {
  const auto& sp = both.spec().program();
  const auto& ip = both.impl().program();
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.spec.retired.size() && i < b.spec.retired.size(); ++i)
    if (a.spec.retired[i] != b.spec.retired[i])
      out.push_back("R(" + sp.instrs[i].name + ") " + std::to_string(a.spec.retired[i]) + " -> " +
                    std::to_string(b.spec.retired[i]));
  for (std::size_t i = 0; i < a.impl.sems.size() && i < b.impl.sems.size(); ++i)
    if (a.impl.sems[i] != b.impl.sems[i])
      out.push_back(ip.semaphores[i] + " " + std::to_string(a.impl.sems[i]) + " -> " + std::to_string(b.impl.sems[i]));
  for (std::size_t e = 0; e < a.impl.regs.size() && e < b.impl.regs.size(); ++e) {
    std::string regs;
    for (std::size_t r = 0; r < a.impl.regs[e].size() && r < b.impl.regs[e].size(); ++r)
      if (a.impl.regs[e][r] != b.impl.regs[e][r])
        regs += (regs.empty() ? "" : ", ") + ip.registers[r] + " " + std::to_string(a.impl.regs[e][r]) + " -> " +
                std::to_string(b.impl.regs[e][r]);
    if (!regs.empty()) out.push_back(ip.engines[e] + ": " + regs);
  }
  return out;
}

bool shows(const std::vector<Violation>& found, const nlohmann::json& expected, const semantics::CompiledProgram& sp) {
  const std::string kind = expected.value("step", "");
  for (const auto& v : found) {
    if (kind == "stuck" && v.kind == ViolationKind::Deadlock) return true;
    if (kind == "overflow" && v.kind == ViolationKind::Overflow && sp.engines[v.engine] == expected.value("engine", ""))
      return true;
    if (kind != "part" || (v.kind != ViolationKind::UnderSync && v.kind != ViolationKind::OverSync)) continue;
    const bool impl_issues = expected.value("impl", "") == "issues";
    if (sp.engines[v.engine] == expected.value("engine", "") &&
        sp.instrs[v.mismatch.instr].name == expected.value("instr", "") && v.mismatch.impl_can == impl_issues)
      return true;
  }
  return false;
}

}  // namespace

model::Result<TraceSteps> read_trace(const nlohmann::json& doc, std::size_t which) {
  TraceSteps t;
  const auto pick = [&](const nlohmann::json& list, const char* what) -> model::Result<TraceSteps> {
    std::vector<const nlohmann::json*> traces;
    bool shortened = false;
    for (const auto& v : list) {
      if (v.contains("trace") && v["trace"].is_array()) traces.push_back(&v["trace"]);
      for (const char* property : {"safe", "exact"})  // prove --json: a refuted property's witness
        if (v.contains(property) && v[property].contains("witness")) {
          const auto& w = v[property]["witness"];
          if (w.contains("trace_omitted")) shortened = true;
          else if (w.contains("trace") && w["trace"].is_array()) traces.push_back(&w["trace"]);
        }
    }
    if (traces.empty() && shortened)
      return model::make_error(
          "", "no-trace", "the witnesses here are shortened (trace_omitted): write whole ones with prove --trace-out");
    if (traces.empty())
      return model::make_error("", "no-trace", std::string("the file has no ") + what + " with a trace");
    const std::size_t i = which == 0 ? 0 : which - 1;
    if (i >= traces.size())
      return model::make_error(
          "", "no-trace", "the file has " + std::to_string(traces.size()) + " traces, not " + std::to_string(which));
    t.steps = *traces[i];
    t.source = std::string(what) + " " + std::to_string(i + 1);
    return t;
  };
  // A document that names its kind must be one that holds traces, at a version this reader knows
  // (docs/schema/README.md "Versioning"); one without the field (written before it existed, or by
  // hand) is read by its shape.
  if (doc.is_object() && doc.contains("syncbisim")) {
    const auto& v = doc["syncbisim"];
    const std::string version =
        v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string kind = version.substr(0, version.find('/'));
    if (kind != "check" && kind != "prove" && kind != "traces")
      return model::make_error(
          "", "no-trace",
          "no trace here: a " + version +
              " document (expected the JSON of check, prove, fuzz or shrink, or an array of steps)");
    if (version != kind + "/1")
      return model::make_error("/syncbisim", "bad-version",
                               "traces are read from check/1, prove/1 and traces/1 documents, not " + version);
  }
  model::Result<TraceSteps> r = t;
  if (doc.is_array()) {
    t.steps = doc;
    t.source = "the array";
    r = t;
  } else if (doc.is_object() && doc.contains("violations") && doc["violations"].is_array()) {
    r = pick(doc["violations"], "violation");
  } else if (doc.is_object() && doc.contains("consumers") && doc["consumers"].is_array()) {
    r = pick(doc["consumers"], "refuted property");
  } else if (doc.is_object() && doc.contains("witnesses") && doc["witnesses"].is_array()) {
    r = pick(doc["witnesses"], "witness");  // prove --trace-out
  } else if (doc.is_object() && doc.contains("trace") && doc["trace"].is_array()) {
    t.steps = doc["trace"];
    t.source = "the trace";
    r = t;
  } else {
    return model::make_error("", "no-trace",
                             "no trace here (expected the JSON of check, prove, fuzz or shrink, or an array of steps)");
  }
  if (!r) return r;
  for (std::size_t i = 0; i < r->steps.size(); ++i)
    if (!r->steps[i].is_object() || !r->steps[i].contains("step") || !r->steps[i]["step"].is_string())
      return model::make_error("/" + std::to_string(i), "bad-trace", "a trace step is an object with a \"step\" name");
  return r;
}

bool trace_has_commits(const TraceSteps& t) {
  for (const auto& s : t.steps)
    if (s.value("step", "") == "commit") return true;
  return false;
}

ReplayResult replay_trace(const ProgramPair& pair, const TraceSteps& trace) {
  const auto& both = pair.lockstep();
  const auto& ip = both.impl().program();
  ReplayResult r;
  r.end = both.initial();
  semantics::Steps steps;
  std::size_t number = 0;
  for (std::size_t i = 0; i < trace.steps.size(); ++i) {
    const auto& want = trace.steps[i];
    const std::string name = want["step"];
    if (name == "part" || name == "stuck" || name == "overflow") {
      r.expected = want;
      if (i + 1 != trace.steps.size()) r.misfit = "element " + std::to_string(i) + ": \"" + name + "\" must come last";
      break;
    }
    if (!is_visible_name(name)) continue;  // the lock step derives the internal steps itself
    ++number;
    steps.clear();
    both.visible(r.end, steps);
    const auto found = matching_step(ip, steps, want);
    if (!found) {
      std::string can;
      for (std::size_t k = 0; k < steps.size() && k < 8; ++k)
        can += (k ? ", " : "") + semantics::describe(ip, steps[k]);
      if (steps.size() > 8) can += ", ...";
      r.misfit = "step " + std::to_string(number) + " (" +
                 want.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                 ") is not a step this pair can take there" +
                 (steps.empty() ? std::string(": it can take none") : "; it can: " + can);
      return r;
    }
    ReplayedStep rs;
    rs.number = number;
    rs.step = *found;
    rs.text = semantics::describe(ip, *found);
    if (found->kind == StepKind::Issue) rs.checks = checks_text(both, r.end, found->engine);
    const auto before = r.end;
    try {
      both.apply(r.end, *found);
    } catch (const semantics::InternalStepLimit& e) {
      r.misfit = "step " + std::to_string(number) + " does not end: it passes the limit " + e.what();
      return r;
    }
    rs.changes = changes(both, before, r.end);
    r.visible.push_back(*found);
    r.steps.push_back(std::move(rs));
  }
  std::vector<semantics::Mismatch> mismatches;
  steps.clear();
  both.visible(r.end, steps, &mismatches);
  Classifier classify(both);
  classify.classify(r.end, steps, mismatches, [&] { return r.visible; });
  r.violations = std::move(classify.found());
  if (r.expected) r.expected_shown = shows(r.violations, *r.expected, both.spec().program());
  return r;
}

std::string render_replay(const ProgramPair& pair, const ReplayResult& r) {
  const auto& both = pair.lockstep();
  const auto& sp = both.spec().program();
  std::string out;
  for (const auto& s : r.steps) {
    out += std::to_string(s.number) + ". " + s.text + "\n";
    if (!s.checks.empty()) out += "     " + s.checks + "\n";
    for (const auto& c : s.changes) out += "     " + c + "\n";
  }
  if (!r.misfit.empty()) return out + "the trace does not fit the pair: " + r.misfit + "\n";
  if (r.violations.empty()) {
    out += "end of the trace: no violation here";
    if (r.expected && r.expected->value("step", "") == "overflow")
      out += " (the trace recorded an overflow: at these widths, --register-bits and --semaphore-bits, there is none)";
    else if (r.expected) out += " (the trace recorded one: the pair no longer shows it)";
    return out + "\n";
  }
  for (const auto& v : r.violations) {
    if (v.kind == ViolationKind::Overflow) {
      out += describe_overflow(both.impl().program(), v.overflow) + "\n";
    } else if (v.kind == ViolationKind::Deadlock) {
      out += std::string("deadlock: ") +
             (v.spec_deadlocks_too ? "the spec is stuck here too" : "only the impl is stuck") + "; stuck:";
      for (auto e : v.stuck) out += " " + sp.engines[e];
      out += "\n";
    } else {
      out += "part: " + sp.engines[v.engine] + ": " + parting_text(sp, v.mismatch) + "\n" +
             describe_mismatch(sp, both.impl().program(), v.mismatch) + "\n";
    }
  }
  if (r.expected)
    out += r.expected_shown ? "reproduced: the violation the trace records\n"
                            : "a violation, but not the one the trace records\n";
  return out;
}

}  // namespace syncbisim::checker
