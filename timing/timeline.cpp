#include "timing/timeline.h"

#include <algorithm>
#include <cstdio>

#include "model/decimal.h"

namespace syncbisim::timing {

namespace {

std::string cycles_text(double c) { return model::fixed(c, 0); }

}  // namespace

model::Result<SvgWindow> parse_window(const std::string& text) {
  const auto colon = text.find(':');
  auto bad = [&] {
    return model::make_error("--svg-range", "bad-range", "expected FROM:TO in cycles, got '" + text + "'");
  };
  if (colon == std::string::npos) return bad();
  const auto a = text.substr(0, colon), b = text.substr(colon + 1);
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 15 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(a) || !digits(b)) return bad();
  SvgWindow w;
  w.from = static_cast<double>(std::stoull(a));
  w.to = static_cast<double>(std::stoull(b));
  if (w.to <= w.from) return bad();
  w.max_instances = static_cast<std::size_t>(-1);
  return w;
}

std::string iteration_label(const semantics::CompiledProgram& code,
                            const std::vector<std::pair<model::LoopId, std::uint32_t>>& iters) {
  std::string out;
  for (const auto& [l, i] : iters) {
    if (!out.empty()) out += " ";
    out += code.loops[l].name + "=" + std::to_string(i);
  }
  return out;
}

Timeline simulation_timeline(const Simulation& s, const semantics::CompiledProgram& code, const SvgWindow& w) {
  Timeline t;
  t.lanes = code.engines;
  t.unit = "cycles";
  char head[160];
  std::snprintf(head, sizeof head, "timing model: makespan %llu cycles (%.2f us at %.2f GHz)%s",
                static_cast<unsigned long long>(s.makespan), static_cast<double>(s.makespan) / (s.clock_ghz * 1000.0),
                s.clock_ghz, s.deadlock ? ", then deadlock" : "");
  t.title = head;
  for (const auto& tr : s.trips) t.subtitle += (t.subtitle.empty() ? "trips: " : ", ") + tr;
  // The window: instances are recorded in issue order.
  double from = w.from, to = w.to;
  if (to <= 0) {
    to = static_cast<double>(s.makespan);
    std::size_t n = 0;
    for (const auto& in : s.instances)
      if (static_cast<double>(in.issue) >= from && ++n > w.max_instances) {
        to = static_cast<double>(in.issue);
        break;
      }
  } else {
    std::size_t n = 0;
    for (const auto& in : s.instances)
      if (static_cast<double>(in.issue) >= from && static_cast<double>(in.issue) < to && ++n > w.max_page) {
        to = static_cast<double>(in.issue);
        t.next_page = to;
        t.notes.push_back("the first " + std::to_string(w.max_page) +
                          " instructions of the range asked for; the next page: --svg-range " + cycles_text(to) + ":" +
                          cycles_text(w.to));
        break;
      }
  }
  if (to <= from) to = from + 1;
  t.t0 = from;
  t.t1 = to;
  auto visible = [&](double a, double b) { return b > from && a < to; };
  std::size_t shown = 0;
  for (const auto& in : s.instances) {
    const double a = static_cast<double>(in.issue), b = static_cast<double>(in.retire);
    if (in.stall_end > in.ready && visible(static_cast<double>(in.ready), static_cast<double>(in.stall_end))) {
      TimelineSpan sp;
      sp.lane = in.engine;
      sp.start = static_cast<double>(in.ready);
      sp.end = static_cast<double>(in.stall_end);
      sp.kind = TimelineSpan::Kind::Stall;
      sp.tooltip = code.instrs[in.instr].name + " stalled " + cycles_text(sp.end - sp.start) + " cycles" +
                   (in.cause_sem >= 0 ? " on " + code.semaphores[in.cause_sem] : "");
      t.spans.push_back(sp);
    }
    if (!visible(a, b)) continue;
    ++shown;
    TimelineBox bx;
    bx.lane = in.engine;
    bx.start = a;
    bx.end = static_cast<double>(in.busy_end);
    bx.tail = b;
    bx.label = code.instrs[in.instr].name;
    bx.detail = iteration_label(code, in.iters);
    bx.tooltip = bx.label + (bx.detail.empty() ? "" : " (" + bx.detail + ")") + " on " + code.engines[in.engine] +
                 ": issued at " + cycles_text(a) + ", pipeline held to " + cycles_text(bx.end) + ", retired at " +
                 cycles_text(b);
    t.boxes.push_back(bx);
    if (in.cause >= 0 && static_cast<std::size_t>(in.cause) < s.instances.size()) {
      const auto& p = s.instances[static_cast<std::size_t>(in.cause)];
      TimelineArrow ar;
      ar.from_lane = p.engine;
      ar.from = static_cast<double>(p.retire);
      ar.to_lane = in.engine;
      ar.to = static_cast<double>(in.stall_end);
      const auto it = iteration_label(code, p.iters);
      ar.label = "after " + code.instrs[p.instr].name + (it.empty() ? "" : " " + it) + " (" +
                 code.semaphores[in.cause_sem] + ")";
      t.arrows.push_back(ar);
    }
  }
  for (const auto& be : s.barrier_events) {
    const double r = static_cast<double>(be.release);
    for (std::size_t e = 0; e < be.reached.size(); ++e) {
      const double a = static_cast<double>(be.reached[e]);
      if (!visible(a, r)) continue;
      TimelineSpan sp;
      sp.lane = e;
      sp.start = a;
      sp.end = r;
      sp.kind = TimelineSpan::Kind::Barrier;
      sp.tooltip = code.engines[e] + " at a barrier from " + cycles_text(a) + " to " + cycles_text(r);
      t.spans.push_back(sp);
    }
    if (r >= from && r <= to) t.marks.push_back(TimelineMark{r, "barrier"});
  }
  for (std::size_t e = 0; e < s.sequencer.size(); ++e)
    for (const auto& [a, b] : s.sequencer[e]) {
      if (!visible(static_cast<double>(a), static_cast<double>(b))) continue;
      TimelineSpan sp;
      sp.lane = e;
      sp.start = static_cast<double>(a);
      sp.end = static_cast<double>(b);
      sp.kind = TimelineSpan::Kind::Sequencer;
      sp.tooltip = code.engines[e] + " sequencer: register operations and branches, " + cycles_text(sp.end - sp.start) +
                   " cycles";
      t.spans.push_back(sp);
    }
  if (shown < s.instances.size() || from > 0 || to < static_cast<double>(s.makespan)) {
    char note[200];
    std::snprintf(note, sizeof note, "showing cycles %.0f to %.0f of %llu: %zu of %zu instruction instances", from, to,
                  static_cast<unsigned long long>(s.makespan), shown, s.instances.size());
    t.notes.push_back(note);
  }
  if (s.deadlock) t.notes.push_back("deadlock: " + s.deadlock_detail);
  return t;
}

}  // namespace syncbisim::timing
