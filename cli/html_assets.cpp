// The --html page's style and script (cli/html_assets.h): the page's behaviour, apart from the C++
// that gathers its data (cli/html_report.cpp).
#include "cli/html_assets.h"

namespace syncbisim::cli::html_assets {

const char* const kStyle = R"CSS(
:root { --fg: #1d2430; --muted: #5b6575; --line: #d9dee7; --soft: #f5f7fa; --head: #eef1f6;
        --ok: #1e7d3a; --bad: #b42318; --warn: #b54708; --unk: #475467; --cur: #dbeafe; --mark: #fde68a; }
* { box-sizing: border-box; }
html { scroll-padding-top: 48px; }
body { margin: 0; color: var(--fg); background: #fff;
       font: 14px/1.45 "DejaVu Sans", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
code, pre, .mono { font-family: "DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace; }
code { font-size: 12.5px; background: var(--soft); padding: 1px 4px; border-radius: 3px; overflow-wrap: anywhere; }
header.top { padding: 14px 24px 10px; background: var(--soft); border-bottom: 1px solid var(--line); }
header.top h1 { font-size: 18px; margin: 0 0 4px; }
header.top .files { margin: 0; color: var(--muted); }
nav.toc { position: sticky; top: 0; z-index: 10; background: #fff; border-bottom: 1px solid var(--line);
          padding: 7px 24px; display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; }
nav.toc a { color: #1d4ed8; text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
main { padding: 4px 24px 48px; }
section { margin-top: 22px; }
h2 { font-size: 16px; margin: 0 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; margin: 0 0 6px; }
p.note { color: var(--muted); margin: 4px 0 8px; }
.verdict { border-left: 6px solid var(--unk); background: var(--soft); padding: 10px 16px; border-radius: 4px; }
.verdict p { margin: 2px 0; }
.verdict .verdict-word { font-size: 22px; font-weight: 700; color: var(--unk); overflow-wrap: anywhere; }
.verdict .exit { color: var(--muted); }
.verdict.ok { border-color: var(--ok); } .verdict.ok .verdict-word { color: var(--ok); }
.verdict.bad { border-color: var(--bad); } .verdict.bad .verdict-word { color: var(--bad); }
.verdict.warn { border-color: var(--warn); } .verdict.warn .verdict-word { color: var(--warn); }
.two { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
pre.program, pre.text { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; margin: 0;
                        padding: 8px 10px; font-size: 12.5px; line-height: 1.4; overflow: auto; white-space: pre; }
pre.program { max-height: 480px; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.text { max-height: 560px; }
pre.description { margin: 0 0 8px; padding: 6px 10px; background: #fff7ed; border: 1px solid #fed7aa;
                  border-radius: 4px; font-size: 12.5px; white-space: pre-wrap; }
pre.program .ins.hl { background: var(--mark); outline: 1px solid #d97706; border-radius: 2px; }
.stepper[hidden] { display: none; }
.stepper { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 6px 0 8px; }
.stepper .pos { min-width: 9em; text-align: center; font-weight: 600; }
.stepper .hint { color: var(--muted); font-size: 12.5px; margin-left: 8px; }
button { font: inherit; font-size: 13px; padding: 3px 12px; border: 1px solid #98a2b3; border-radius: 4px;
         background: #fff; cursor: pointer; }
button:hover:not(:disabled) { background: var(--head); }
button:disabled { opacity: .45; cursor: default; }
section.trace { padding: 10px 12px 12px; border: 1px solid var(--line); border-radius: 6px; }
section.trace.active { border-color: #93c5fd; box-shadow: 0 0 0 2px #dbeafe; }
section.trace > h2 { border-bottom: none; }
.trace-body { display: grid; grid-template-columns: minmax(0, 1fr); gap: 16px; align-items: start; }
html.js .trace-body { grid-template-columns: minmax(0, 1fr) minmax(360px, 30%); }
.table-wrap { max-height: 560px; overflow: auto; border: 1px solid var(--line); border-radius: 4px; }
table { border-collapse: collapse; }
table.steps { width: 100%; font-size: 12.5px; }
table.steps th { position: sticky; top: 0; z-index: 1; background: var(--head); text-align: left;
                 font-weight: 600; padding: 4px 6px; border-bottom: 1px solid var(--line); }
table.steps td { padding: 3px 6px; border-top: 1px solid var(--line); vertical-align: top; }
table.steps td.n { text-align: right; color: var(--muted); white-space: nowrap; }
table.steps td.instr { font-weight: 600; overflow-wrap: anywhere; }
table.steps .it { display: block; font-weight: 400; font-size: 11.5px; color: var(--muted); white-space: nowrap; }
table.steps td.spec { min-width: 13em; } table.steps td.impl { min-width: 9em; } table.steps td.chg { min-width: 12em; }
table.steps td.spec, table.steps td.impl, table.steps td.chg { font-family: "DejaVu Sans Mono", ui-monospace, monospace;
                                                              font-size: 12px; }
table.steps td span.ch { white-space: nowrap; }
table.steps tr.start td { color: var(--muted); font-style: italic; }
table.steps tr.elided td { text-align: center; color: var(--muted); background: var(--soft); }
table.steps tr.closing td { background: #fdecea; font-weight: 600; }
html.js table.steps tr[data-row] { cursor: pointer; }
html.js table.steps tr[data-row]:hover td { background: #f1f5f9; }
table.steps tr.current td, html.js table.steps tr.current:hover td { background: var(--cur); }
table.steps tr.current td:first-child { box-shadow: inset 4px 0 0 #2563eb; }
.no { color: var(--bad); font-weight: 600; }
aside.panel { display: none; }
html.js aside.panel { display: block; position: sticky; top: 46px; border: 1px solid var(--line); border-radius: 4px;
                      padding: 8px 12px 10px; background: #fff; max-height: calc(100vh - 60px); overflow: auto; }
.panel-head { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; margin-bottom: 6px; }
.panel-step { font-weight: 700; }
.panel-what { font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: 12.5px; }
.sides { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
.side h4 { margin: 8px 0 2px; font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.panel p.sub { margin: 8px 0 2px; font-size: 12px; color: var(--muted); }
.panel table { font-size: 12.5px; width: 100%; }
.panel th, .panel td { padding: 1px 6px 1px 0; text-align: left; vertical-align: top; }
.panel table.checks { table-layout: fixed; border: 1px solid var(--line); border-radius: 4px; }
.panel table.checks th, .panel table.checks td { padding: 2px 6px; overflow-wrap: anywhere; }
.panel table.checks col.c1 { width: 38%; } .panel table.checks col.c2 { width: 17%; }
.panel table.checks col.c3 { width: 21%; }
.panel td.value, .panel td.retired, .panel td.owed, .panel td.threshold { font-family: "DejaVu Sans Mono", ui-monospace, monospace; }
.panel tr.head th { color: var(--muted); font-weight: 400; font-size: 11.5px; background: var(--soft);
                    border-bottom: 1px solid var(--line); }
.panel tr.changed td, .panel tr.changed th { background: var(--mark); }
.panel td.was { color: var(--muted); font-size: 11.5px; }
.panel tr.no th, .panel tr.no td { color: var(--bad); font-weight: 600; }
.panel td.none { color: var(--muted); font-style: italic; }
.panel ul.internal { margin: 2px 0 0; padding-left: 18px; font-family: "DejaVu Sans Mono", ui-monospace, monospace;
                     font-size: 12px; }
.figure { overflow-x: auto; border: 1px solid var(--line); border-radius: 4px; padding: 6px; background: #fff; margin-top: 10px; }
.figure svg { display: block; max-width: none; }
table.grid { font-size: 13px; margin: 4px 0 8px; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
table.grid th { background: var(--head); font-weight: 600; }
table.grid td.num { text-align: right; font-family: "DejaVu Sans Mono", ui-monospace, monospace; }
table.grid td.wrap { max-width: 640px; }
.tag { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 12px; background: var(--head); }
.tag.ok { background: #dcfce7; color: var(--ok); } .tag.bad { background: #fee2e2; color: var(--bad); }
.tag.warn { background: #ffedd5; color: var(--warn); } .tag.unknown { background: var(--head); color: var(--unk); }
details > summary { cursor: pointer; color: #1d4ed8; margin: 4px 0; }
@media (max-width: 1100px) {
  .two, html.js .trace-body, .sides { grid-template-columns: minmax(0, 1fr); }
  html.js aside.panel { position: static; max-height: none; }
}
)CSS";

const char* const kScript = R"JS(
(function () {
  "use strict";
  var blob = document.getElementById("syncbisim-data");
  if (!blob) return;
  var data;
  try { data = JSON.parse(blob.textContent); } catch (e) { return; }
  document.documentElement.classList.add("js");

  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  function each(list, f) { Array.prototype.forEach.call(list, f); }

  // Each instruction on a block line of a program ("E1: [r := r + 1] {s >= r} C {t += 1}")
  // becomes a span, so that the current step's instruction is marked on both sides.
  var spans = [];
  each(document.querySelectorAll("pre.program"), function (pre) {
    var lines = pre.textContent.split("\n");
    pre.textContent = "";
    lines.forEach(function (line, n) {
      if (n > 0) pre.appendChild(document.createTextNode("\n"));
      var m = /^(\s*[A-Za-z_][A-Za-z0-9_.\-]*:)(.*)$/.exec(line);
      if (!m) { pre.appendChild(document.createTextNode(line)); return; }
      pre.appendChild(document.createTextNode(m[1]));
      var rest = m[2], depth = 0, word = "", text = "";
      function flushText() { if (text) { pre.appendChild(document.createTextNode(text)); text = ""; } }
      function flushWord() {
        if (!word) return;
        if (depth === 0 && word !== "barrier") {
          flushText();
          var s = h("span", "ins", word);
          s.setAttribute("data-instr", word);
          pre.appendChild(s);
          spans.push(s);
        } else {
          text += word;
        }
        word = "";
      }
      for (var i = 0; i < rest.length; i++) {
        var c = rest.charAt(i);
        if (/[A-Za-z_]/.test(c) || (word !== "" && /[0-9.\-]/.test(c))) { word += c; continue; }
        flushWord();
        if (c === "[" || c === "{") depth++;
        else if ((c === "]" || c === "}") && depth > 0) depth--;
        text += c;
      }
      flushWord();
      flushText();
    });
  });
  // Marks the instruction's spans, and scrolls each program to its first one if it is out of view.
  function markInstr(name) {
    var seen = [];
    spans.forEach(function (s) {
      var on = !!name && s.getAttribute("data-instr") === name;
      s.classList.toggle("hl", on);
      var pre = s.parentNode;
      if (!on || seen.indexOf(pre) >= 0) return;
      seen.push(pre);
      var r = s.getBoundingClientRect(), b = pre.getBoundingClientRect();
      var left = b.left + pre.clientLeft, top = b.top + pre.clientTop;
      // Back to the start where the span fits there, else to it when it is out of view.
      var x = r.left - left + pre.scrollLeft, y = r.top - top + pre.scrollTop;
      if (x + r.width <= pre.clientWidth - 8) pre.scrollLeft = 0;
      else if (r.left < left || r.right > left + pre.clientWidth) pre.scrollLeft = x - 40;
      if (y + r.height <= pre.clientHeight - 4) pre.scrollTop = 0;
      else if (r.top < top || r.bottom > top + pre.clientHeight) pre.scrollTop = y - pre.clientHeight / 2;
    });
  }

  // The state after row k: the segment's state (after its first row), then each row's changes.
  function stateAt(t, k) {
    var seg = t.segments[0];
    t.segments.forEach(function (s) { if (s.first <= k) seg = s; });
    var st = { R: seg.R.slice(), S: seg.S.slice(), G: seg.G.map(function (a) { return a.slice(); }) };
    for (var j = seg.first + 1; j <= k; j++) {
      (t.rows[j].d || []).forEach(function (c) {
        if (c[0] === "G") st.G[c[1]][c[2]] = c[4];
        else st[c[0]][c[1]] = c[3];
      });
    }
    return st;
  }

  function values(cls, names, vals, changed, prefix, showAll) {
    var box = h("div", "vals-box");
    var table = h("table", "vals " + cls);
    var hidden = 0;
    for (var i = 0; i < names.length; i++) {
      var v = vals[i], was = changed[i], isChanged = was !== undefined;
      if (!showAll && !isChanged && String(v) === "0") { hidden++; continue; }
      var tr = h("tr", isChanged ? "changed" : "");
      tr.setAttribute("data-name", names[i]);
      add(tr, h("th", null, prefix ? prefix + "(" + names[i] + ")" : names[i]), h("td", "value", v),
          h("td", "was", isChanged ? "was " + was : ""));
      table.appendChild(tr);
    }
    if (table.rows.length) box.appendChild(table);
    if (hidden) add(box, h("p", "sub", (table.rows.length ? hidden + " more" : "all " + hidden) + " at 0"));
    return box;
  }

  function headRow(cells) {
    var tr = h("tr", "head");
    cells.forEach(function (c) { tr.appendChild(h("th", null, c)); });
    return tr;
  }

  var steppers = [], active = null;
  function setActive(s) {
    if (active === s) return;
    if (active) active.sec.classList.remove("active");
    active = s;
    if (s) s.sec.classList.add("active");
  }

  function Stepper(sec, t) {
    var self = this;
    this.sec = sec;
    this.t = t;
    this.cur = -1;
    this.wrap = sec.querySelector(".table-wrap");
    this.trs = {};
    each(sec.querySelectorAll("tr[data-row]"), function (tr) {
      self.trs[tr.getAttribute("data-row")] = tr;
      tr.addEventListener("click", function () { self.go(+tr.getAttribute("data-row")); });
    });
    var bar = sec.querySelector(".stepper");
    bar.hidden = false;
    this.pos = bar.querySelector(".pos");
    this.btn = {};
    ["first", "prev", "next", "last"].forEach(function (b) {
      self.btn[b] = bar.querySelector("button." + b);
      self.btn[b].addEventListener("click", function () {
        var n = self.t.rows.length;
        self.go(b === "first" ? 0 : b === "last" ? n - 1 : self.cur + (b === "next" ? 1 : -1));
      });
    });
    this.panel = sec.querySelector("aside.panel");
    this.panel.textContent = "";
    this.show(0);
  }

  Stepper.prototype.go = function (k) {
    setActive(this);
    this.show(k);
    markInstr(this.t.rows[this.cur].instr);
  };

  Stepper.prototype.show = function (k) {
    var n = this.t.rows.length;
    k = Math.max(0, Math.min(n - 1, k));
    var old = this.trs[this.cur];
    if (old) { old.classList.remove("current"); old.removeAttribute("aria-current"); }
    this.cur = k;
    var tr = this.trs[k];
    if (tr) {
      tr.classList.add("current");
      tr.setAttribute("aria-current", "step");
      var w = this.wrap, head = w.querySelector("thead"), hh = head ? head.offsetHeight : 0;
      var top = tr.offsetTop, bottom = top + tr.offsetHeight;
      if (top - hh < w.scrollTop) w.scrollTop = top - hh;
      else if (bottom > w.scrollTop + w.clientHeight) w.scrollTop = bottom - w.clientHeight;
    }
    var row = this.t.rows[k];
    this.pos.textContent = this.label(row);
    this.btn.first.disabled = this.btn.prev.disabled = k === 0;
    this.btn.last.disabled = this.btn.next.disabled = k === n - 1;
    this.render();
  };

  Stepper.prototype.label = function (row) {
    if (row.kind === "start") return "start";
    if (row.kind === "closing") return "end: " + row.step;
    return "step " + row.n + " of " + this.t.steps;
  };

  Stepper.prototype.render = function () {
    var t = this.t, k = this.cur, row = t.rows[k], st = stateAt(t, k);
    var changed = { R: {}, S: {}, G: {} };
    (row.d || []).forEach(function (c) {
      if (c[0] === "G") { (changed.G[c[1]] = changed.G[c[1]] || {})[c[2]] = c[3]; }
      else changed[c[0]][c[1]] = c[2];
    });
    var p = this.panel;
    p.textContent = "";
    var title = row.kind === "start" ? "Start" : row.kind === "closing" ? "End (" + row.step + ")" : "Step " + row.n + " of " + t.steps;
    add(p, add(h("div", "panel-head"), h("span", "panel-step", title), h("span", "panel-what", row.what)));
    var after = row.kind === "start" ? "after the internal steps at the start" :
                row.kind === "closing" ? "at the end of the trace" : "after the step";

    var issue = row.step === "issue";
    if (issue || row.kind === "closing" && (row.spec.length || row.impl.length || row.barrier)) {
      add(p, h("p", "sub", row.kind !== "closing" ? "both sides at this issue, before it"
                           : row.step === "part" ? "both sides at " + row.instr + ", where they part"
                           : "both sides at " + row.instr + ", where its engine is stuck"));
      var ct = h("table", "checks");
      var cols = h("colgroup");
      ["c1", "c2", "c3", "c4"].forEach(function (c) { cols.appendChild(h("col", c)); });
      add(ct, cols, headRow(["spec: dependency", "R", "owed", ""]));
      row.spec.forEach(function (c) {
        var tr = h("tr", c.ok ? "" : "no");
        tr.setAttribute("data-dep", c.dep);
        add(tr, h("th", null, c.dep + (c.at ? " " + c.at : "")), h("td", "retired", c.R),
            h("td", "owed", c.underflow ? "-" : c.owed),
            h("td", "answer", c.underflow ? "nothing owed" : c.ok ? "satisfied" : "not satisfied"));
        ct.appendChild(tr);
      });
      if (!row.spec.length) ct.appendChild(add(h("tr"), Object.assign(h("td", "none", "no dependency"), { colSpan: 4 })));
      ct.appendChild(headRow(["impl: wait on", "value", "threshold", ""]));
      row.impl.forEach(function (w) {
        var tr = h("tr", w.ok ? "" : "no");
        tr.setAttribute("data-sem", w.sem);
        add(tr, h("th", null, w.sem), h("td", "value", w.value), h("td", "threshold", w.threshold),
            h("td", "answer", w.ok ? "holds" : "blocks"));
        ct.appendChild(tr);
      });
      if (!row.impl.length)
        ct.appendChild(add(h("tr", row.barrier ? "no" : ""),
                           Object.assign(h("td", "none", row.barrier ? "held at a barrier" : "no wait"), { colSpan: 4 })));
      p.appendChild(ct);
    }

    add(p, h("p", "sub", "the state " + after));
    var sides = h("div", "sides");
    var spec = add(h("div", "side side-spec"), h("h4", null, "Spec: retired"));
    spec.appendChild(values("retired", t.instrs, st.R, changed.R, "R", t.instrs.length <= 24));
    var impl = add(h("div", "side side-impl"), h("h4", null, "Impl: semaphores"));
    impl.appendChild(values("sems", t.sems, st.S, changed.S, "", t.sems.length <= 24));
    t.engines.forEach(function (e, i) {
      var box = values("regs", t.regs, st.G[i], changed.G[i] || {}, "", false);
      if (box.querySelector("tr")) add(impl, h("h4", null, e + " registers"), box);
    });
    add(sides, spec, impl);
    p.appendChild(sides);
    if (row.internal && row.internal.length) {
      add(p, h("p", "sub", row.kind === "start" ? "internal steps at the start" : "then, internal steps"));
      var ul = h("ul", "internal");
      row.internal.forEach(function (s) { ul.appendChild(h("li", null, s)); });
      p.appendChild(ul);
    }
  };

  (data.traces || []).forEach(function (t) {
    var sec = document.getElementById("trace-" + t.id);
    if (sec && t.rows && t.rows.length) steppers.push(new Stepper(sec, t));
  });
  if (steppers.length) setActive(steppers[0]);

  document.addEventListener("keydown", function (ev) {
    if (!active || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (ev.key === "ArrowRight") active.go(active.cur + 1);
    else if (ev.key === "ArrowLeft") active.go(active.cur - 1);
    else return;
    ev.preventDefault();
  });
})();
)JS";

}  // namespace syncbisim::cli::html_assets
