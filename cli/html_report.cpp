// The --html page of check, prove and simulate (cli/html_report.h, docs/report.md).
#include "cli/html_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/report.h"
#include "checker/trace_view.h"
#include "latency/check_report.h"
#include "latency/counterexample_svg.h"
#include "cli/detail/html_page.h"
#include "cli/detail/html_trace.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "model/decimal.h"
#include "prover/report.h"
#include "semantics/random_run.h"
#include "semantics/step.h"
#include "timing/simulation_report.h"
#include "timing/svg.h"
#include "timing/trace_timeline.h"

namespace syncbisim::cli {

using namespace html;  // the page and its traces (cli/detail/html_page.h, html_trace.h)

namespace {

// ---------------------------------------------------------------------------------------------
// Coverage and footprints.

std::string num_cell(std::uint64_t v) { return "<td class=\"num\">" + std::to_string(v) + "</td>"; }

void add_coverage(Page& page, const checker::Coverage& cov, const std::string& how) {
  const auto j = cov.render_json();
  std::string h = "<h2>Coverage</h2>\n<p class=\"note\">" + esc(how) + "</p>\n<pre class=\"text\">" +
                  esc(cov.render_text()) + "</pre>\n";
  h += "<h3>Dependencies</h3>\n";
  if (j["dependencies"].empty()) h += "<p class=\"note\">The spec has no dependency.</p>\n";
  else
    h += "<table class=\"grid\" id=\"coverage-deps\"><tr><th>dependency</th><th>distance</th>"
         "<th>consumer next</th><th>owed</th><th>held it back</th><th></th></tr>\n";
  for (const auto& d : j["dependencies"]) {
    std::string dist;
    for (const auto& [l, k] : d["distance"].items())
      dist += (dist.empty() ? "" : ", ") + l + "=" + (k.is_string() ? k.get<std::string>() : k.dump());
    const auto reached = d["reached"].get<std::uint64_t>(), owed = d["owed"].get<std::uint64_t>(),
               held = d["held"].get<std::uint64_t>();
    const std::string tag = held > 0      ? "<span class=\"tag ok\">held</span>"
                            : owed > 0    ? "<span class=\"tag warn\">only owed</span>"
                            : reached > 0 ? "<span class=\"tag warn\">never owed</span>"
                                          : "<span class=\"tag bad\">not reached</span>";
    h += "<tr><td>" + esc(d["producer"].get<std::string>() + " -> " + d["consumer"].get<std::string>()) + "</td><td>" +
         esc(dist) + "</td>" + num_cell(reached) + num_cell(owed) + num_cell(held) + "<td>" + tag + "</td></tr>\n";
  }
  if (!j["dependencies"].empty()) h += "</table>\n";
  h += "<h3>Waits</h3>\n";
  if (j["waits"].empty()) h += "<p class=\"note\">The impl has no wait.</p>\n";
  else
    h += "<table class=\"grid\" id=\"coverage-waits\"><tr><th>engine</th><th>instruction</th>"
         "<th>wait</th><th>checked</th><th>blocked</th><th></th></tr>\n";
  for (const auto& w : j["waits"]) {
    const auto reached = w["reached"].get<std::uint64_t>(), blocked = w["blocked"].get<std::uint64_t>();
    const auto ge = w["ge"].is_string() ? w["ge"].get<std::string>() : w["ge"].dump();
    h += "<tr><td>" + esc(w["engine"].get<std::string>()) + "</td><td>" + esc(w["instr"].get<std::string>()) +
         "</td><td><code>" + esc(w["sem"].get<std::string>() + " >= " + ge) + "</code></td>" + num_cell(reached) +
         num_cell(blocked) + "<td>" +
         (blocked > 0 ? "<span class=\"tag ok\">blocked</span>" : "<span class=\"tag warn\">never blocked</span>") +
         "</td></tr>\n";
  }
  if (!j["waits"].empty()) h += "</table>\n";
  page.section("coverage", "Coverage", h);
}

void add_coverage_note(Page& page, const std::string& why) {
  page.section("coverage", "Coverage", "<h2>Coverage</h2>\n<p class=\"note\">" + esc(why) + "</p>\n");
}

// The conflict behind a derived dependency between `producer` and `consumer`, if the derivation has one.
const footprint::Justification* why_of(const footprint::Derivation& d, const std::string& producer,
                                       const std::string& consumer) {
  for (const auto& x : d.deps)
    if (x.dep.producer == producer && x.dep.consumer == consumer && !x.why.empty()) return &x.why.front();
  return nullptr;
}

std::string access_cells(const footprint::Justification* w, const std::string& producer, const std::string& consumer,
                         const std::string& fallback) {
  if (!w) return "<td colspan=\"4\">" + esc(fallback) + "</td>";
  return "<td>" + esc(footprint::to_string(w->hazard)) + "</td><td><code>" + esc(w->element) + "</code></td><td>" +
         esc(producer + " " + w->producer_at + " " + w->producer_access) + "</td><td>" +
         esc(consumer + " " + w->consumer_at + " " + w->consumer_access) + "</td>";
}

// A race's conflict (footprint::describe: "RAW on s[0, 0]: evac (i=0) writes s[i mod 2, :], then
// store (i=0) reads s[i mod 2, :]") in four cells: hazard, element, the first and the second access.
std::string race_cells(const std::string& d) {
  const auto on = d.find(" on ");
  const auto colon = on == std::string::npos ? on : d.find("]: ", on);
  const auto then = colon == std::string::npos ? colon : d.find(", then ", colon);
  if (then == std::string::npos) return "<td colspan=\"4\">" + esc(d) + "</td>";
  return "<td>" + esc(d.substr(0, on)) + "</td><td><code>" + esc(d.substr(on + 4, colon + 1 - (on + 4))) +
         "</code></td><td>" + esc(d.substr(colon + 3, then - (colon + 3))) + "</td><td>" + esc(d.substr(then + 7)) +
         "</td>";
}

// The footprints' judgement of the written graph; `impl_races`: the unmet dependencies of an
// under-synchronized check that a conflict justifies (the impl's races).
void add_footprints(Page& page, const FootprintJudgement& f,
                    const std::vector<std::pair<std::string, std::string>>& impl_races) {
  const auto& c = f.comparison;
  std::string h =
      "<h2>Footprints</h2>\n<p class=\"note\">The written graph judged against the footprints "
      "(docs/footprints.md); iterations count from 0.</p>\n";
  if (!c.races.empty()) {
    h += "<h3>Races of the written graph</h3>\n<table class=\"grid\" id=\"races\"><tr><th>race</th><th>trips</th>"
         "<th>hazard</th><th>element</th><th>first access</th><th>second access</th><th>fix</th></tr>\n";
    for (const auto& r : c.races)
      h += "<tr><td>" + esc(r.producer + " -> " + r.consumer) +
           (r.missing ? " <span class=\"tag bad\">no dep</span>" : "") + "</td><td>" + esc(r.trips) + "</td>" +
           race_cells(r.description) + "<td><code>" + esc(r.fix) + "</code></td></tr>\n";
    h += "</table>\n";
  }
  if (!impl_races.empty()) {
    h += "<h3>Races of the impl</h3>\n<p class=\"note\">Dependencies the impl leaves unmet (the violations above) "
         "and the conflict on memory each orders.</p>\n<table class=\"grid\" id=\"impl-races\"><tr><th>unmet "
         "dependency</th><th>hazard</th><th>element</th><th>first access</th><th>second access</th></tr>\n";
    for (const auto& [p, q] : impl_races)
      h += "<tr><td>" + esc(p + " -> " + q) + "</td>" + access_cells(why_of(f.derivation, p, q), p, q, "") + "</tr>\n";
    h += "</table>\n";
  }
  h += "<pre class=\"text\">" + esc(footprint::comparison_text(c)) + "</pre>\n";
  page.section("footprints", "Footprints", h);
}

// ---------------------------------------------------------------------------------------------
// Check.

Closing closing_of(const semantics::CompiledProgram& sp, const semantics::CompiledProgram& ip,
                   const checker::Violation& v) {
  Closing c;
  c.engine = sp.engines[v.engine];
  switch (v.kind) {
    case checker::ViolationKind::UnderSync:
    case checker::ViolationKind::OverSync:
      c.label = "part";
      c.instr = sp.instrs[v.mismatch.instr].name;
      c.text = checker::parting_text(sp, v.mismatch);
      c.mismatch = v.mismatch;
      break;
    case checker::ViolationKind::Deadlock: {
      c.label = "stuck";
      std::string who;
      for (auto e : v.stuck) who += (who.empty() ? "" : ", ") + sp.engines[e];
      c.text = "stuck: " + who + (v.spec_deadlocks_too ? " (the spec too)" : " (the impl only)");
      if (v.instr) {
        c.instr = sp.instrs[*v.instr].name;
        c.stuck = v.engine;
      }
      break;
    }
    case checker::ViolationKind::Overflow:
      c.label = "overflow";
      c.text = checker::describe_overflow(ip, v.overflow);
      break;
  }
  return c;
}

std::string violation_title(const semantics::CompiledProgram& sp, const checker::Violation& v, std::size_t k) {
  std::string t = "Violation " + std::to_string(k) + ": " + checker::to_string(v.kind) + " on " + sp.engines[v.engine];
  if (v.instr) t += " at " + sp.instrs[*v.instr].name;
  return t;
}

std::string violation_description(const semantics::CompiledProgram& sp, const semantics::CompiledProgram& ip,
                                  const checker::Violation& v) {
  switch (v.kind) {
    case checker::ViolationKind::UnderSync:
    case checker::ViolationKind::OverSync: return checker::describe_mismatch(sp, ip, v.mismatch);
    case checker::ViolationKind::Overflow: return checker::describe_overflow(ip, v.overflow);
    case checker::ViolationKind::Deadlock: return closing_of(sp, ip, v).text;
  }
  return "";
}

}  // namespace

int write_check_html(const std::string& path, const HtmlSources& in, const LoadedPair& pair,
                     const checker::CheckResult& r, const HtmlCheck& how) {
  const auto& both = pair.lockstep();
  const auto& sp = both.spec().program();
  const auto& ip = both.impl().program();
  Page page("check", in);
  const auto text = checker::render_text(both, pair.spec.program, r,
                                         latency::closed_form_hints(pair.spec.program, pair.spec.index, r));
  {
    auto lines = lines_of(text);
    std::vector<std::string> detail;
    for (std::size_t k = 1; k < lines.size() && !lines[k].empty(); ++k) detail.push_back(lines[k]);
    page.verdict(lines.empty() ? std::string(checker::to_string(r.verdict)) : lines.front(), detail,
                 exit_meaning(checker::exit_status(r.verdict)));
  }
  add_programs(page, in, pair, !r.violations.empty());
  std::size_t k = 0;
  for (const auto& v : r.violations) {
    ++k;
    TraceInput t;
    t.id = "v" + std::to_string(k);
    t.nav = "Violation " + std::to_string(k);
    t.title = violation_title(sp, v, k);
    t.description = violation_description(sp, ip, v);
    t.note = "The shortest trace to it: one row per visible step, with both sides' numbers at each issue.";
    t.both = &both;
    t.steps = &v.trace;
    t.closing = closing_of(sp, ip, v);
    t.view = latency::counterexample_view(both, v);
    add_trace(page, std::move(t));
  }
  if (r.violations.empty())
    page.section("traces", "Trace",
                 "<h2>Trace</h2>\n<p class=\"note\">" +
                     esc(r.verdict == checker::Verdict::Bisimilar
                             ? "No violation: every interleaving was explored and the two sides agree at every state, "
                               "so there is no trace to step through."
                             : "No violation was found before the search stopped (" +
                                   (r.limit.empty() ? std::string("not exhaustive") : r.limit) + ").") +
                     "</p>\n");
  // Coverage: as check --coverage computed it, else once more with coverage when that is cheap.
  if (how.coverage) {
    add_coverage(page, *how.coverage, "As check --coverage computed it, over the states of this search.");
  } else if (!how.rerun || how.rerun->walks > 0 || !r.exhaustive) {
    add_coverage_note(page,
                      "Not computed: this search was not an exhaustive one. Run check with --coverage to have "
                      "it here.");
  } else if (r.states > kCoverageRerunStates) {
    add_coverage_note(page, "Not computed: the search explored " + std::to_string(r.states) +
                                " states (the page searches once more for coverage only up to " +
                                std::to_string(kCoverageRerunStates) + "). Run check with --coverage to have it here.");
  } else {
    checker::Coverage cov(both);
    auto o = *how.rerun;
    o.progress = nullptr;
    o.coverage = &cov;
    o.threads = 1;
    o.max_seconds = how.seconds_left > 0 ? std::min(how.seconds_left, 30.0) : 30.0;
    const auto again = checker::check(*pair.checked, o);
    if (again.limit.empty() && again.exhaustive)
      add_coverage(page, cov,
                   "Computed for this page: the search was run once more with coverage (as check --coverage does, "
                   "on one thread), since it was small.");
    else
      add_coverage_note(page, "Not computed: the second search, for coverage, stopped at " +
                                  (again.limit.empty() ? std::string("a limit") : again.limit) +
                                  ". Run check with --coverage to have it here.");
  }
  if (in.footprints) {
    std::vector<std::pair<std::string, std::string>> impl_races;
    if (r.verdict == checker::Verdict::UnderSynchronized)
      for (const auto& v : r.violations)
        for (const auto& c : v.mismatch.spec_checks) {
          if (c.satisfied()) continue;
          const auto& d = pair.spec.program.deps[pair.spec_code().deps[c.dep].index];
          const std::pair<std::string, std::string> pq{d.producer, d.consumer};
          if (why_of(in.footprints->derivation, d.producer, d.consumer) &&
              std::find(impl_races.begin(), impl_races.end(), pq) == impl_races.end())
            impl_races.push_back(pq);
        }
    add_footprints(page, *in.footprints, impl_races);
  }
  add_text(page, text, "the report as check prints it");
  return write_page(path, page);
}

int write_race_html(const std::string& path, const std::string& command, const HtmlSources& in,
                    const LoadedPair& pair) {
  Page page(command, in);
  const auto& c = in.footprints->comparison;
  const auto text = footprint::comparison_text(c);
  const auto lines = lines_of(text);
  page.verdict("race", {lines.empty() ? std::string() : lines.front()}, exit_meaning(1));
  add_programs(page, in, pair, false);
  add_footprints(page, *in.footprints, {});
  add_text(page, text, "the report as " + command + " prints it");
  return write_page(path, page);
}

// ---------------------------------------------------------------------------------------------
// Prove.

namespace {

std::string answer_tag(prover::Answer a) {
  const std::string word = prover::to_string(a);
  const std::string cls = a == prover::Answer::Proved ? "ok" : a == prover::Answer::Refuted ? "bad" : "unknown";
  return "<span class=\"tag " + cls + "\">" + esc(word) + "</span>";
}

std::string property_cell(const prover::Property& p) {
  return "<td class=\"wrap\">" + answer_tag(p.answer) + (p.reason.empty() ? "" : " " + esc(p.reason)) + "</td>";
}

}  // namespace

int write_prove_html(const std::string& path, const HtmlSources& in, const LoadedPair& pair,
                     const prover::ProveResult& r) {
  Page page("prove", in);
  const bool graph_unsure = in.footprints && in.footprints->comparison.verdict != footprint::GraphVerdict::Ordered;
  const bool relative = graph_unsure && r.verdict == prover::Answer::Proved;
  const std::string word =
      relative ? "unknown: the waits are proved against the written graph, but the footprints' check of that graph is "
                 "inconclusive (below)"
               : prover::verdict_words(r);
  std::vector<std::string> detail;
  if (!r.may_deadlock.empty())
    detail.push_back("note: not shown free of deadlock for every trip count (" + r.may_deadlock + ")");
  char secs[64];
  std::snprintf(secs, sizeof secs, "%zu consumers, %.2f s", r.consumers.size(), r.seconds);
  detail.emplace_back(secs);
  page.verdict(word, detail, exit_meaning(relative ? 3 : prover::exit_status(r.verdict)));
  bool witnesses = false;
  for (const auto& c : r.consumers) witnesses = witnesses || c.safe.witness || c.exact.witness;
  for (const auto& o : r.overflows) witnesses = witnesses || o.traced;
  add_programs(page, in, pair, witnesses);

  std::string h =
      "<h2>Consumers</h2>\n<p class=\"note\">Per consumer, for every trip count: safe (the impl never "
      "issues it before its dependencies are satisfied) and exact (it never waits once they are).</p>\n"
      "<table class=\"grid\" id=\"consumers\"><tr><th>consumer</th><th>engine</th><th>safe</th>"
      "<th>exact</th><th>seconds</th></tr>\n";
  for (const auto& c : r.consumers) {
    char t[32];
    std::snprintf(t, sizeof t, "%.3f", c.seconds);
    h += "<tr><td>" + esc(c.instr) + "</td><td>" + esc(c.engine) + "</td>" + property_cell(c.safe) +
         property_cell(c.exact) + "<td class=\"num\">" + t + "</td></tr>\n";
  }
  h += "</table>\n";
  if (!r.overflows.empty()) {
    std::size_t proved = 0;
    std::string rows;
    for (const auto& o : r.overflows) {
      if (o.answer == prover::Answer::Proved) {
        ++proved;
        continue;
      }
      rows += "<tr><td>" + esc(o.kind + " " + o.name + (o.kind == "register" ? " (" + o.engine + ")" : "")) +
              "</td><td class=\"wrap\">" + answer_tag(o.answer) + " " + esc(prover::overflow_line(o)) + "</td></tr>\n";
    }
    h += "<h3>Overflow</h3>\n<p class=\"note\">" +
         esc(std::to_string(proved) + " of " + std::to_string(r.overflows.size()) +
             " registers and semaphores never pass " + std::to_string(r.widths.register_bits) +
             "-bit registers, signed " + std::to_string(r.widths.semaphore_bits) + "-bit semaphores.") +
         "</p>\n";
    if (!rows.empty())
      h += "<table class=\"grid\" id=\"overflows\"><tr><th>value</th><th>answer</th></tr>\n" + rows + "</table>\n";
  }
  page.section("consumers", "Consumers", h);

  const auto& both = r.pair->lockstep();
  const auto& sp = r.pair->spec_code();
  std::size_t k = 0;
  for (const auto& c : r.consumers)
    for (const auto& [name, p] : {std::pair<const char*, const prover::Property*>{"safe", &c.safe},
                                  std::pair<const char*, const prover::Property*>{"exact", &c.exact}}) {
      if (!p->witness) continue;
      const auto& w = *p->witness;
      ++k;
      TraceInput t;
      t.id = "w" + std::to_string(k);
      t.nav = "Witness " + std::to_string(k);
      t.title = "Witness " + std::to_string(k) + ": " + c.instr + " (" + c.engine + ") " + name + " refuted";
      t.description = w.description;
      t.note = p->reason;
      if (!w.trace_built) {
        page.section("trace-" + t.id, t.nav,
                     "<h2>" + esc(t.title) + "</h2>\n<pre class=\"description\">" + esc(w.description) +
                         "</pre>\n<p class=\"note\">" +
                         esc("The trace, " + std::to_string(w.steps) +
                             " steps, was not built: longer than the witness limit (--max-witness-steps).") +
                         "</p>\n",
                     "trace");
        continue;
      }
      t.both = &both;
      t.steps = &w.trace;
      t.closing.label = "part";
      t.closing.engine = sp.engines[w.mismatch.engine];
      t.closing.instr = sp.instrs[w.mismatch.instr].name;
      t.closing.text = checker::parting_text(sp, w.mismatch);
      t.closing.mismatch = w.mismatch;
      timing::CounterexampleView view;
      view.title = t.title;
      view.trace = w.trace;
      view.mismatch = w.mismatch;
      t.view = view;
      add_trace(page, std::move(t));
    }
  std::size_t o_k = 0;
  for (const auto& o : r.overflows) {
    if (o.answer != prover::Answer::Refuted || !o.traced) continue;
    ++o_k;
    TraceInput t;
    t.id = "o" + std::to_string(o_k);
    t.nav = "Overflow " + std::to_string(o_k);
    t.title = "Overflow " + std::to_string(o_k) + ": " + o.kind + " " + o.name;
    t.description = prover::overflow_line(o);
    t.both = &both;
    t.steps = &o.trace;
    t.closing.label = "overflow";  // its text from the end state
    timing::CounterexampleView view;
    view.title = t.title;
    view.trace = o.trace;
    t.view = view;
    add_trace(page, std::move(t));
  }
  if (in.footprints) add_footprints(page, *in.footprints, {});
  std::string text = prover::render_text(r);
  if (relative) text = word + "\n" + text;
  if (in.footprints) text += "footprints: " + footprint::comparison_text(in.footprints->comparison);
  add_text(page, text, "the report as prove prints it");
  return write_page(path, page);
}

// ---------------------------------------------------------------------------------------------
// Simulate.

namespace {

std::string pct(std::uint64_t part, std::uint64_t whole) {
  char b[16];
  std::snprintf(b, sizeof b, "%.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return b;
}

}  // namespace

int write_simulate_html(const std::string& path, const HtmlSources& in, const LoadedPair& pair,
                        const timing::Simulation& s, const timing::SvgWindow& window) {
  Page page("simulate", in);
  const auto& code = pair.impl_code();
  const auto text = timing::simulation_text(s, code);
  const std::string word = s.deadlock ? "deadlock" : !s.limit.empty() ? "cut" : "finished";
  std::vector<std::string> detail{first_line(text)};
  if (s.deadlock) detail.push_back("deadlock: " + s.deadlock_detail);
  if (!s.limit.empty()) detail.push_back("limit: " + s.limit + "; the figures are those of the run so far");
  std::string trips;
  for (const auto& t : s.trips) trips += " " + t;
  detail.push_back("trips:" + trips);
  const int status = !s.limit.empty() ? 3 : s.deadlock ? 1 : 0;
  page.verdict(word, detail,
               status == 0   ? "exit status 0: the run finished"
               : status == 1 ? "exit status 1: the impl deadlocks on the timing model"
                             : "exit status 3: the run was cut at a limit");
  add_programs(page, in, pair, false);

  std::string h =
      "<h2>Engines</h2>\n<p class=\"note\" id=\"makespan\">" + esc(first_line(text)) +
      "</p>\n<table class=\"grid\" id=\"engines\"><tr><th>engine</th><th>busy</th><th>stalled</th>"
      "<th>barrier</th><th>idle</th><th>finish</th><th>busy %</th><th>stalled %</th><th>barrier %</th></tr>\n";
  for (const auto& e : s.engines)
    h += "<tr><td>" + esc(e.engine) + "</td>" + num_cell(e.busy) + num_cell(e.stalled) + num_cell(e.barrier) +
         num_cell(e.idle) + num_cell(e.finish) + "<td class=\"num\">" + pct(e.busy, s.makespan) +
         "</td><td class=\"num\">" + pct(e.stalled, s.makespan) + "</td><td class=\"num\">" +
         pct(e.barrier, s.makespan) + "</td></tr>\n";
  h += "</table>\n<p class=\"note\">" +
       esc("issued " + std::to_string(s.instrs_issued) + " datapath instructions, " + std::to_string(s.regops) +
           " register operations, " + std::to_string(s.branches) + " branches, " + std::to_string(s.barriers) +
           " barriers") +
       "</p>\n";
  if (s.stalls.empty()) {
    h += "<p class=\"note\">No wait stalled.</p>\n";
  } else {
    h += "<h3>Waits that stalled</h3>\n<table class=\"grid\" id=\"stalls\"><tr><th>instruction</th><th>engine</th>"
         "<th>semaphore</th><th>cycles</th><th>issues</th><th>longest</th></tr>\n";
    for (const auto& st : s.stalls)
      h += "<tr><td>" + esc(code.instrs[st.instr].name) + "</td><td>" +
           esc(code.engines[code.instrs[st.instr].engine]) + "</td><td>" + esc(code.semaphores[st.sem]) + "</td>" +
           num_cell(st.total) + num_cell(st.count) + num_cell(st.longest) + "</tr>\n";
    h += "</table>\n";
  }
  page.section("engines", "Engines", h);

  const auto tl = timing::simulation_timeline(s, code, window);
  std::string f = "<h2>Timeline</h2>\n";
  if (tl.next_page >= 0)
    f += "<p class=\"note\">" +
         esc("The picture holds the first " + std::to_string(window.max_page) +
             " instructions of the range (a page); the next page starts at cycle " + model::fixed(tl.next_page, 0) +
             " (--svg-range).") +
         "</p>\n";
  f += "<div class=\"figure\" id=\"timeline\">" + inline_svg(timing::render_svg(tl), "sim-") + "</div>\n";
  page.section("timeline", "Timeline", f);
  add_text(page, text, "the report as simulate prints it");
  return write_page(path, page);
}

}  // namespace syncbisim::cli
