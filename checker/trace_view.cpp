#include "checker/trace_view.h"

#include <algorithm>

#include "checker/mismatch_fix.h"

namespace syncbisim::checker {

using semantics::StepKind;

namespace {

std::string cell(const semantics::CompiledProgram& p, const semantics::RunEvent& ev) {
  const auto& st = ev.step;
  std::string out;
  switch (st.kind) {
    case StepKind::Issue: out = p.instrs[st.arg].name; break;
    case StepKind::Retire: out = "done " + p.instrs[st.arg].name; break;
    case StepKind::Commit: out = "commit #" + std::to_string(st.arg); break;
    case StepKind::Choose: {
      const auto& l = p.loops[st.aux];
      if (l.kind == model::LoopKind::CondThen)
        out = "take " + l.name.substr(0, l.name.rfind('.')) + (st.arg == 0 ? ".then" : ".else");
      else out = "trip " + l.name + "=" + std::to_string(st.arg);
      break;
    }
    case StepKind::LoopEntry: out = ev.detail.empty() ? "enter " + p.loops[st.arg].name : ev.detail; return out;
    case StepKind::LoopExit: out = "exit " + p.loops[st.arg].name; break;
    case StepKind::BackEdge: return "";
    case StepKind::RegOp: return "[" + p.regops[st.arg].text + "] " + ev.detail;
    case StepKind::BarrierArrive: out = "barrier"; break;
    case StepKind::BarrierRelease: out = "release"; break;
  }
  if (!ev.detail.empty() && st.kind != StepKind::Choose) out += " {" + ev.detail + "}";
  return out;
}

}  // namespace

std::string render_columns(const semantics::CompiledProgram& p, const std::vector<semantics::RunEvent>& events,
                           TraceOptions o) {
  const auto engines = p.engine_count();
  struct Row {
    std::size_t step;    // 0 for an internal step
    std::size_t engine;  // engines = every column (a barrier release)
    std::string text;
  };
  std::vector<Row> rows;
  std::vector<std::size_t> width(engines, 0);
  for (std::size_t e = 0; e < engines; ++e) width[e] = std::max<std::size_t>(p.engines[e].size(), 6);
  // Visible steps are numbered (they are what a trace replays); internal ones are not.
  std::size_t visible = 0;
  for (const auto& ev : events) {
    if (ev.visible) ++visible;
    if (!ev.visible && !o.internal) continue;
    std::string text = cell(p, ev);
    if (text.empty()) continue;
    const std::size_t e = ev.step.kind == StepKind::BarrierRelease ? engines : ev.step.engine;
    if (e < engines) width[e] = std::max(width[e], text.size());
    rows.push_back(Row{ev.visible ? visible : 0, e, std::move(text)});
  }
  const std::size_t closing_first = rows.size();
  for (const auto& [e, text] : o.closing) {
    if (e < engines) width[e] = std::max(width[e], text.size());
    rows.push_back(Row{0, e, text});
  }
  auto pad = [](std::string s, std::size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s;
  };
  std::string out = pad("step", 6);
  for (std::size_t e = 0; e < engines; ++e) out += "  " + pad(p.engines[e], width[e]);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += "\n";
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    std::string line = pad(k >= closing_first ? o.closing_label : r.step ? std::to_string(r.step) : "", 6);
    for (std::size_t e = 0; e < engines; ++e)
      line += "  " + pad(r.engine == e || r.engine == engines ? r.text : "", width[e]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

nlohmann::json step_to_json(const semantics::CompiledProgram& p, const semantics::Step& s) {
  nlohmann::json j;
  j["step"] = semantics::to_string(s.kind);
  if (s.kind != StepKind::BarrierRelease) j["engine"] = p.engines[s.engine];
  switch (s.kind) {
    case StepKind::Issue:
    case StepKind::Retire: j["instr"] = p.instrs[s.arg].name; break;
    case StepKind::Commit: j["position"] = s.arg; break;
    case StepKind::Choose: {
      const auto& l = p.loops[s.aux];
      if (l.kind == model::LoopKind::CondThen) {
        j["cond"] = l.name.substr(0, l.name.rfind('.'));
        j["taken"] = s.arg == 0 ? "then" : "else";
      } else {
        j["loop"] = l.name;
        j["trip"] = s.arg;
      }
      break;
    }
    case StepKind::LoopEntry:
    case StepKind::LoopExit:
    case StepKind::BackEdge: j["loop"] = p.loops[s.arg].name; break;
    case StepKind::RegOp: j["op"] = p.regops[s.arg].text; break;
    default: break;
  }
  return j;
}

nlohmann::json events_to_json(const semantics::CompiledProgram& p, const std::vector<semantics::RunEvent>& events,
                              TraceOptions o) {
  auto out = nlohmann::json::array();
  for (const auto& ev : events) {
    if (!ev.visible && !o.internal) continue;
    auto j = step_to_json(p, ev.step);
    if (!ev.detail.empty()) j["detail"] = ev.detail;
    out.push_back(std::move(j));
  }
  return out;
}

std::string named_vector(const semantics::CompiledProgram& spec, const semantics::CompiledDep& d,
                         const std::vector<std::int64_t>& v) {
  std::string out = "(";
  bool first = true;
  for (std::size_t j = 0; j < v.size() && j < d.common.size(); ++j) {
    if (d.common[j] == model::kTop && v[j] == 1) continue;  // @top runs once: its 1 says nothing
    out += (first ? "" : ", ") + spec.loops[d.common[j]].name + "=" + std::to_string(v[j]);
    first = false;
  }
  return out + ")";
}

nlohmann::json named_vector_json(const semantics::CompiledProgram& spec, const semantics::CompiledDep& d,
                                 const std::vector<std::int64_t>& v) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t k = 0; k < v.size() && k < d.common.size(); ++k) j[spec.loops[d.common[k]].name] = v[k];
  return j;
}

std::vector<std::int64_t> target_of(const semantics::DependencyCheck& c) { return {c.target.begin(), c.target.end()}; }

std::vector<std::int64_t> iteration_of(const semantics::CompiledDep& d, const semantics::DependencyCheck& c) {
  std::vector<std::int64_t> v(c.target.begin(), c.target.end());
  for (std::size_t j = 0; j < v.size() && j < d.distance.size(); ++j) v[j] += d.distance[j];
  return v;
}

std::string parting_text(const semantics::CompiledProgram& spec, const semantics::Mismatch& m) {
  std::string s = spec.instrs[m.instr].name;
  if (!m.spec_checks.empty()) {
    const auto& c = m.spec_checks.front();
    // An instruction in no loop (only @top) has nothing to show: no empty "()".
    if (const auto v = named_vector(spec, spec.deps[c.dep], iteration_of(spec.deps[c.dep], c)); v != "()") s += " " + v;
  }
  return s + (m.impl_can ? " issues in the impl only" : " issues in the spec only");
}

nlohmann::json parting_json(const semantics::CompiledProgram& spec, const semantics::Mismatch& m) {
  nlohmann::json j{{"step", "part"},
                   {"engine", spec.engines[m.engine]},
                   {"instr", spec.instrs[m.instr].name},
                   {"spec", m.spec_can ? "issues" : "waits"},
                   {"impl", m.impl_can ? "issues" : "waits"}};
  if (!m.spec_checks.empty()) {
    const auto& c = m.spec_checks.front();
    j["iteration"] = named_vector_json(spec, spec.deps[c.dep], iteration_of(spec.deps[c.dep], c));
  }
  return j;
}

std::string describe_overflow(const semantics::CompiledProgram& impl, const semantics::Overflow& o) {
  using semantics::OverflowKind;
  const auto& engine = impl.engines[o.engine];
  const auto limit = [&](const char* what) {
    return ", past the " + std::to_string(o.bits) + "-bit " + what + " width (largest " + std::to_string(o.max) + ")";
  };
  switch (o.kind) {
    case OverflowKind::Semaphore:
      return "overflow: a signal on " + engine + " takes semaphore " + impl.semaphores[o.sem] + " to " +
             std::to_string(o.value) + limit("signed semaphore");
    case OverflowKind::Register: {
      const auto& op = impl.regops[o.regop];
      return "overflow: " + engine + " [" + op.text + "] computes " + std::to_string(o.value) + limit("register");
    }
    case OverflowKind::PastU64:
      return "overflow: " + engine + " [" + impl.regops[o.regop].text +
             "]: a value passes 2^64 - 1, the largest the tool represents (at any register width)";
    case OverflowKind::None: break;
  }
  return "no overflow";
}

std::string overflow_row(const semantics::CompiledProgram& impl, const semantics::Overflow& o) {
  using semantics::OverflowKind;
  switch (o.kind) {
    case OverflowKind::Semaphore: return impl.semaphores[o.sem] + " = " + std::to_string(o.value) + " overflows";
    case OverflowKind::Register:
      return impl.registers[impl.regops[o.regop].dst] + ": " + std::to_string(o.value) + " overflows";
    case OverflowKind::PastU64: return "[" + impl.regops[o.regop].text + "] passes 2^64 - 1";
    case OverflowKind::None: break;
  }
  return "";
}

nlohmann::json overflow_json(const semantics::CompiledProgram& impl, const semantics::Overflow& o) {
  using semantics::OverflowKind;
  nlohmann::json j{{"engine", impl.engines[o.engine]}, {"what", semantics::to_string(o.kind)}};
  if (o.kind == OverflowKind::Semaphore) {
    j["semaphore"] = impl.semaphores[o.sem];
  } else {
    const auto& op = impl.regops[o.regop];
    j["register"] = impl.registers[op.dst];
    j["regop"] = op.text;
  }
  if (o.kind != OverflowKind::PastU64) {
    j["value"] = o.value;
    j["bits"] = o.bits;
    j["max"] = o.max;
  }
  return j;
}

std::string describe_mismatch(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                              const semantics::Mismatch& m) {
  const auto& instr = spec.instrs[m.instr].name;
  const auto& engine = spec.engines[m.engine];
  std::string out = m.impl_can ? "under-synchronization: " + engine + " may issue " + instr +
                                     " in the impl before its dependency is satisfied"
                               : "over-synchronization: " + engine + " waits to issue " + instr +
                                     " in the impl although nothing is owed";
  out += "\n  spec:";
  if (m.spec_checks.empty()) out += " no dependency";
  for (const auto& c : m.spec_checks) {
    const auto& d = spec.deps[c.dep];
    out += "\n    " + spec.instrs[d.producer].name + " -> " + spec.instrs[d.consumer].name + " at " +
           named_vector(spec, d, iteration_of(d, c)) + ": target " + named_vector(spec, d, target_of(c)) + " ";
    out += c.underflow ? "underflows, nothing owed"
                       : "R(" + spec.instrs[d.producer].name + ") = " + std::to_string(c.retired) + ", owed " +
                             std::to_string(c.owed) + (c.satisfied() ? " (satisfied)" : " (not satisfied)");
  }
  out += "\n  impl:";
  if (m.impl_blocked_at_barrier) out += " held at a barrier before " + instr;
  else if (m.impl_checks.empty()) out += " no wait";
  for (const auto& w : m.impl_checks)
    out += "\n    wait " + impl.semaphores[w.sem] + " >= " + std::to_string(w.threshold) + ": " +
           impl.semaphores[w.sem] + " = " + std::to_string(w.value) + (w.holds() ? " (holds)" : " (blocks)");
  if (const auto f = fix_for(spec, impl, m)) out += "\n  fix: " + f->text;
  return out;
}

nlohmann::json mismatch_to_json(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                                const model::Program& spec_program, const semantics::Mismatch& m) {
  nlohmann::json j;
  j["kind"] = m.impl_can ? "under-sync" : "over-sync";
  j["engine"] = spec.engines[m.engine];
  j["instr"] = spec.instrs[m.instr].name;
  if (const auto* pick = deciding_check(m)) {
    const auto& d = spec_program.deps[spec.deps[pick->dep].index];
    nlohmann::json dist = nlohmann::json::object();
    for (const auto& [loop, k] : d.distance) dist[loop] = k;
    for (const auto& loop : d.every) dist[loop] = "*";  // L=*: every iteration
    j["dependency"] = {{"producer", d.producer}, {"consumer", d.consumer}, {"distance", dist}};
    const auto& cd = spec.deps[pick->dep];
    j["spec"] = {{"retired", pick->retired},
                 {"owed", pick->owed},
                 {"underflow", pick->underflow},
                 {"iteration", named_vector_json(spec, cd, iteration_of(cd, *pick))},
                 {"target", named_vector_json(spec, cd, target_of(*pick))}};
  } else {
    j["dependency"] = nullptr;
    j["spec"] = {{"retired", 0}, {"owed", 0}};
  }
  if (const auto* wait = deciding_wait(m)) j["impl"] = {{"sem", impl.semaphores[wait->sem]}, {"value", wait->value}, {"threshold", wait->threshold}};
  else j["impl"] = {{"sem", nullptr}, {"value", 0}, {"threshold", 0}, {"barrier", m.impl_blocked_at_barrier}};
  if (const auto f = fix_for(spec, impl, m)) fix_to_json(*f, j["fix"]);
  return j;
}

}  // namespace syncbisim::checker
