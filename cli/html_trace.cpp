// A trace on the --html page (cli/detail/html_trace.h).
#include "cli/detail/html_trace.h"

#include <algorithm>

#include "checker/trace_view.h"
#include "semantics/random_run.h"
#include "semantics/step.h"
#include "timing/svg.h"

namespace syncbisim::cli::html {

namespace {

using semantics::StepKind;

// A trace longer than kHeadRows + kTailRows steps shows its first kHeadRows and its last
// kTailRows (where it leads to the violation); a timeline is drawn for traces up to
// kMaxTimelineSteps steps.
constexpr std::size_t kHeadRows = 200, kTailRows = 800;
constexpr std::size_t kMaxTimelineSteps = 1000;

// ---------------------------------------------------------------------------------------------
// Traces: one row per visible step, both sides' numbers, the state for the panel.

struct Numbers {
  json spec = json::array(), impl = json::array();
  std::string spec_text, impl_text;
};

// Both sides' numbers for engine e's next instruction: each dependency (R, owed) and each wait.
Numbers numbers(const semantics::CompiledProgram& sp, const semantics::CompiledProgram& ip,
                const std::vector<semantics::DependencyCheck>& deps, const std::vector<semantics::WaitCheck>& waits) {
  Numbers n;
  for (const auto& c : deps) {
    const auto& d = sp.deps[c.dep];
    const std::string producer = sp.instrs[d.producer].name;
    const std::string dep = producer + " -> " + sp.instrs[d.consumer].name;
    std::string at = checker::named_vector(sp, d, checker::iteration_of(d, c));
    if (at == "()") at.clear();
    n.spec.push_back({{"dep", dep},
                      {"at", at},
                      {"R", big(c.retired)},
                      {"owed", big(c.owed)},
                      {"underflow", c.underflow},
                      {"ok", c.satisfied()}});
    const std::string line = dep + (at.empty() ? "" : " " + at) + ": " +
                             (c.underflow ? std::string("nothing owed")
                                          : "R(" + producer + ") = " + std::to_string(c.retired) + ", owed " +
                                                std::to_string(c.owed) + (c.satisfied() ? "" : " (not satisfied)"));
    n.spec_text += std::string(n.spec_text.empty() ? "" : "\n") + line;
  }
  for (const auto& w : waits) {
    n.impl.push_back(
        {{"sem", ip.semaphores[w.sem]}, {"value", big(w.value)}, {"threshold", big(w.threshold)}, {"ok", w.holds()}});
    const std::string line = ip.semaphores[w.sem] + " = " + std::to_string(w.value) +
                             " >= " + std::to_string(w.threshold) + (w.holds() ? "" : " (blocks)");
    n.impl_text += std::string(n.impl_text.empty() ? "" : "\n") + line;
  }
  return n;
}

// Lines of text as <div>s in a cell, the failing ones marked; with `chunks`, a line breaks only
// after its commas ("E1: r 1 -> 2, w 0 -> 1" never as "w 0 ->" and "1").
std::string cell_lines(const std::string& text, bool chunks = false) {
  std::string o;
  for (const auto& l : lines_of(text)) {
    const bool no = l.find("(not satisfied)") != std::string::npos || l.find("(blocks)") != std::string::npos;
    std::string line;
    if (chunks) {
      for (std::size_t at = 0; at <= l.size();) {
        auto end = l.find(", ", at);
        if (end == std::string::npos) end = l.size();
        line += (at ? ", " : "") + std::string("<span class=\"ch\">") + esc(l.substr(at, end - at)) + "</span>";
        at = end + 2;
      }
    } else {
      line = esc(l);
    }
    o += std::string(no ? "<div class=\"no\">" : "<div>") + line + "</div>";
  }
  return o;
}

// Engine e's iteration of the loops around instruction i, outermost first: "(A=2, B=1)".
std::string iteration_text(const semantics::CompiledProgram& p, const semantics::ControlState& c, semantics::EngineId e,
                           semantics::InstrId i) {
  std::vector<std::string> parts;
  for (auto l = p.instrs[i].parent; l != model::kTop && l < p.loops.size(); l = p.loops[l].parent) {
    if (p.loops[l].kind != model::LoopKind::Loop) continue;
    if (e >= c.engines.size() || l >= c.engines[e].frames.size()) break;
    parts.push_back(p.loops[l].name + "=" + std::to_string(c.engines[e].frames[l].iter));
  }
  if (parts.empty()) return "";
  std::string o = "(";
  for (std::size_t k = parts.size(); k-- > 0;) o += parts[k] + (k ? ", " : "");
  return o + ")";
}

// An internal step as the trace columns show it ("E1: B #2", "E1: [r := r + 1] r=2").
std::string internal_text(const semantics::CompiledProgram& ip, const semantics::Step& st,
                          const semantics::LockstepState& now) {
  const std::string who = st.kind == StepKind::BarrierRelease ? std::string() : ip.engines[st.engine] + ": ";
  switch (st.kind) {
    case StepKind::LoopEntry: return who + semantics::iteration_detail(ip, now.impl.control, st);
    case StepKind::LoopExit: return who + "exit " + ip.loops[st.arg].name;
    case StepKind::BackEdge: return "";
    case StepKind::RegOp: {
      const auto& op = ip.regops[st.arg];
      const auto& regs = now.impl.regs[st.engine];
      const bool over = st.engine < now.impl.overflow.size() && now.impl.overflow[st.engine] != 0;
      return who + "[" + op.text + "] " +
             (over ? std::string("overflow")
                   : ip.registers[op.dst] + "=" + (op.dst < regs.size() ? std::to_string(regs[op.dst]) : "?"));
    }
    case StepKind::BarrierArrive: return who + "arrives at its barrier";
    case StepKind::BarrierRelease: return "barrier released";
    default: return semantics::describe(ip, st);
  }
}

struct Snapshot {
  std::vector<std::uint64_t> R, S;
  std::vector<std::vector<std::uint64_t>> G;
};

Snapshot snapshot(const semantics::LockstepState& s) {
  Snapshot o;
  o.R.assign(s.spec.retired.begin(), s.spec.retired.end());
  o.S.assign(s.impl.sems.begin(), s.impl.sems.end());
  for (const auto& regs : s.impl.regs) o.G.emplace_back(regs.begin(), regs.end());
  return o;
}

json snapshot_json(const Snapshot& s, std::size_t first) {
  json R = json::array(), S = json::array(), G = json::array();
  for (auto v : s.R) R.push_back(big(v));
  for (auto v : s.S) S.push_back(big(v));
  for (const auto& e : s.G) {
    json regs = json::array();
    for (auto v : e) regs.push_back(big(v));
    G.push_back(std::move(regs));
  }
  return {{"first", first}, {"R", R}, {"S", S}, {"G", G}};
}

// What a step changed on both sides: JSON for the panel ([kind, index, before, after]; a
// register [\"G\", engine, register, before, after]) and lines for the table.
void changes(const semantics::CompiledProgram& sp, const semantics::CompiledProgram& ip, const Snapshot& a,
             const Snapshot& b, json& d, std::string& text) {
  for (std::size_t i = 0; i < a.R.size() && i < b.R.size(); ++i)
    if (a.R[i] != b.R[i]) {
      d.push_back({"R", i, big(a.R[i]), big(b.R[i])});
      text += "R(" + sp.instrs[i].name + ") " + std::to_string(a.R[i]) + " -> " + std::to_string(b.R[i]) + "\n";
    }
  for (std::size_t i = 0; i < a.S.size() && i < b.S.size(); ++i)
    if (a.S[i] != b.S[i]) {
      d.push_back({"S", i, big(a.S[i]), big(b.S[i])});
      text += ip.semaphores[i] + " " + std::to_string(a.S[i]) + " -> " + std::to_string(b.S[i]) + "\n";
    }
  for (std::size_t e = 0; e < a.G.size() && e < b.G.size(); ++e) {
    std::string regs;
    for (std::size_t r = 0; r < a.G[e].size() && r < b.G[e].size(); ++r)
      if (a.G[e][r] != b.G[e][r]) {
        d.push_back({"G", e, r, big(a.G[e][r]), big(b.G[e][r])});
        regs += (regs.empty() ? "" : ", ") + ip.registers[r] + " " + std::to_string(a.G[e][r]) + " -> " +
                std::to_string(b.G[e][r]);
      }
    if (!regs.empty()) text += ip.engines[e] + ": " + regs + "\n";
  }
  if (!text.empty()) text.pop_back();
}

std::string step_word(const semantics::Step& st) {
  switch (st.kind) {
    case StepKind::Issue: return "issue";
    case StepKind::Retire: return "retire";
    case StepKind::Commit: return "commit";
    case StepKind::Choose: return "choose";
    default: return semantics::to_string(st.kind);
  }
}

// The instruction cell of a visible step: the instruction, a trip or a branch chosen, a commit.
std::string step_object(const semantics::CompiledProgram& ip, const semantics::Step& st) {
  switch (st.kind) {
    case StepKind::Issue:
    case StepKind::Retire: return ip.instrs[st.arg].name;
    case StepKind::Commit: return "#" + std::to_string(st.arg);
    case StepKind::Choose: {
      const auto& l = ip.loops[st.aux];
      if (l.kind == model::LoopKind::CondThen)
        return l.name.substr(0, l.name.rfind('.')) + (st.arg == 0 ? " = then" : " = else");
      return l.name + " = " + std::to_string(st.arg);
    }
    default: return "";
  }
}

std::string row_html(const std::string& row, const std::string& cls, const std::string& n, const std::string& engine,
                     const std::string& step, const std::string& instr, const std::string& at, const std::string& spec,
                     const std::string& impl, const std::string& chg) {
  return "<tr data-row=\"" + row + "\"" + (cls.empty() ? "" : " class=\"" + cls + "\"") + "><td class=\"n\">" + esc(n) +
         "</td><td>" + esc(engine) + "</td><td>" + esc(step) + "</td><td class=\"instr\">" + esc(instr) +
         (at.empty() ? "" : " <span class=\"it\">" + esc(at) + "</span>") + "</td><td class=\"spec\">" + spec +
         "</td><td class=\"impl\">" + impl + "</td><td class=\"chg\">" + chg + "</td></tr>\n";
}

}  // namespace

// The trace's section: the table (and its data for the script), the panel, the timeline.
void add_trace(Page& page, TraceInput in) {
  const auto& both = *in.both;
  const auto& sp = both.spec().program();
  const auto& ip = both.impl().program();
  const auto& steps = *in.steps;
  const std::size_t n = steps.size();
  const bool cut = n > kHeadRows + kTailRows;

  json t{{"id", in.id}, {"steps", n}, {"engines", ip.engines}, {"sems", ip.semaphores}, {"regs", ip.registers}};
  json instrs = json::array();
  for (const auto& i : sp.instrs) instrs.push_back(i.name);
  t["instrs"] = instrs;
  json rows = json::array(), segments = json::array();
  std::string table;

  bool recording = true;
  std::vector<std::string> internal;
  const semantics::InternalObserver observe = [&](const semantics::Step& st, const semantics::LockstepState& now) {
    if (!recording) return;
    if (auto text = internal_text(ip, st, now); !text.empty()) internal.push_back(std::move(text));
  };
  auto s = both.initial(observe);
  segments.push_back(snapshot_json(snapshot(s), 0));
  rows.push_back({{"kind", "start"}, {"what", "the initial state"}, {"internal", internal}, {"d", json::array()}});
  table +=
      row_html("0", "start", "", "", "start", "", "", "", "",
               internal.empty() ? "" : "<div>" + esc(std::to_string(internal.size()) + " internal steps") + "</div>");
  std::string stopped;
  for (std::size_t k = 0; k < n; ++k) {
    const bool shown = !cut || k < kHeadRows || k >= n - kTailRows;
    const auto& st = steps[k];
    recording = shown;
    internal.clear();
    if (cut && k == n - kTailRows)
      table += "<tr class=\"elided\"><td colspan=\"7\">" +
               esc("... steps " + std::to_string(kHeadRows + 1) + " to " + std::to_string(n - kTailRows) +
                   " not shown (" + std::to_string(n - kHeadRows - kTailRows) + " steps)") +
               "</td></tr>\n";
    Numbers nums;
    std::string at;
    std::optional<Snapshot> before;  // a shown step's changes: the state just before it
    if (shown) before = snapshot(s);
    if (shown && st.kind == StepKind::Issue) {
      nums = numbers(sp, ip, both.spec().explain(s.spec, st.engine), both.impl().explain(s.impl, st.engine));
      at = iteration_text(sp, s.spec.control, st.engine, st.arg);
    }
    try {
      both.apply(s, st, observe);
    } catch (const semantics::InternalStepLimit& e) {
      stopped = "the replay stopped at step " + std::to_string(k + 1) + ": it passes the limit " + e.what();
      break;
    }
    if (!shown) continue;
    const Snapshot after = snapshot(s);
    json d = json::array();
    std::string chg;
    changes(sp, ip, *before, after, d, chg);
    const std::size_t row = rows.size();
    // The first step after the rows left out starts a segment: the script's state from there on.
    if (cut && k == n - kTailRows) segments.push_back(snapshot_json(after, row));
    const std::string object = step_object(ip, st);
    json r{{"kind", "step"},
           {"n", k + 1},
           {"step", step_word(st)},
           {"engine", ip.engines[st.engine]},
           {"what", semantics::describe(ip, st) + (at.empty() ? "" : " " + at)},
           {"spec", nums.spec},
           {"impl", nums.impl},
           {"d", d},
           {"internal", internal}};
    if (st.kind == StepKind::Issue || st.kind == StepKind::Retire) r["instr"] = object;
    rows.push_back(std::move(r));
    table += row_html(std::to_string(row), "", std::to_string(k + 1), ip.engines[st.engine], step_word(st), object, at,
                      cell_lines(nums.spec_text), cell_lines(nums.impl_text), cell_lines(chg, true));
  }
  // The end: where the two sides part, who is stuck, what overflows.
  auto& c = in.closing;
  if (c.label == "overflow" && c.text.empty()) {
    const auto found = both.impl().overflows(s.impl);
    if (!found.empty()) {
      c.text = checker::describe_overflow(ip, found.front());
      c.engine = ip.engines[found.front().engine];
    }
  }
  if (!c.label.empty() && stopped.empty()) {
    Numbers nums;
    std::string at;
    json r{{"kind", "closing"}, {"step", c.label},    {"engine", c.engine},
           {"what", c.text},    {"d", json::array()}, {"internal", json::array()}};
    if (c.mismatch) {
      nums = numbers(sp, ip, c.mismatch->spec_checks, c.mismatch->impl_checks);
      if (!c.mismatch->spec_checks.empty()) {
        const auto& dc = c.mismatch->spec_checks.front();
        at = checker::named_vector(sp, sp.deps[dc.dep], checker::iteration_of(sp.deps[dc.dep], dc));
        if (at == "()") at.clear();
      }
      r["barrier"] = c.mismatch->impl_blocked_at_barrier;
      r["instr"] = c.instr;
      if (c.mismatch->impl_blocked_at_barrier) nums.impl_text = "held at a barrier";
    } else if (c.stuck && !c.instr.empty()) {
      // Why the engine is stuck: both sides at the instruction it stands before.
      nums = numbers(sp, ip, both.spec().explain(s.spec, *c.stuck), both.impl().explain(s.impl, *c.stuck));
      r["instr"] = c.instr;
    }
    r["spec"] = nums.spec;
    r["impl"] = nums.impl;
    const std::size_t row = rows.size();
    rows.push_back(std::move(r));
    table += row_html(std::to_string(row), "closing", c.label, c.engine, c.label, c.instr, at,
                      cell_lines(nums.spec_text), cell_lines(nums.impl_text), cell_lines(c.text));
  }
  t["rows"] = rows;
  t["segments"] = segments;

  std::string h = "<h2>" + esc(in.title) + "</h2>\n";
  if (!in.note.empty()) h += "<p class=\"note\">" + esc(in.note) + "</p>\n";
  if (!in.description.empty()) h += "<pre class=\"description\">" + esc(in.description) + "</pre>\n";
  if (cut)
    h += "<p class=\"note\">" +
         esc("A trace of " + std::to_string(n) + " steps: its first " + std::to_string(kHeadRows) + " and last " +
             std::to_string(kTailRows) + " are shown (--trace-out FILE writes every step).") +
         "</p>\n";
  if (!stopped.empty()) h += "<p class=\"note no\">" + esc(stopped) + "</p>\n";
  h += "<div class=\"stepper\" hidden><button type=\"button\" class=\"first\">&laquo; First</button>"
       "<button type=\"button\" class=\"prev\">&lsaquo; Prev</button><span class=\"pos\"></span>"
       "<button type=\"button\" class=\"next\">Next &rsaquo;</button>"
       "<button type=\"button\" class=\"last\">Last &raquo;</button>"
       "<span class=\"hint\">or the &larr; &rarr; keys; click a row to go to it</span></div>\n";
  h += "<div class=\"trace-body\">\n<div class=\"table-wrap\"><table class=\"steps\"><thead><tr><th>#</th>"
       "<th>engine</th><th>step</th><th>instruction</th><th>spec at the issue: R, owed</th>"
       "<th>impl at the issue: value &gt;= threshold</th><th>changes</th></tr></thead>\n<tbody>\n" +
       table + "</tbody></table></div>\n<aside class=\"panel\" aria-live=\"polite\"></aside>\n</div>\n";
  if (in.view) {
    if (n <= kMaxTimelineSteps && stopped.empty()) {
      const auto svg = timing::render_svg(timing::counterexample_timeline(both, *in.view));
      h += "<div class=\"figure\" id=\"timeline-" + esc(in.id) + "\">" + inline_svg(svg, in.id + "-") + "</div>\n";
    } else {
      h += "<p class=\"note\">No timeline: the trace has more than " + std::to_string(kMaxTimelineSteps) +
           " steps.</p>\n";
    }
  }
  page.section("trace-" + in.id, in.nav, h, "trace");
  page.traces().push_back(std::move(t));
}

}  // namespace syncbisim::cli::html
