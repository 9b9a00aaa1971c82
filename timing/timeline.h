#pragma once
// A timeline picture as a value (docs/timing.md "Pictures"): one lane per engine, a box per
// instruction instance, shaded stalls and barriers, dashed barrier releases, arrows for the
// dependencies that held someone, a time axis. Two builders fill it: a simulation (time in
// cycles) and a checker counterexample (time in steps of its trace, timing/trace_timeline.h).
// Drawing it is timing/svg.h's business.
#include <cstdint>
#include <string>
#include <vector>

#include "model/result.h"
#include "semantics/compiled_program.h"
#include "timing/simulate.h"

namespace syncbisim::timing {

struct TimelineBox {
  std::size_t lane = 0;
  double start = 0, end = 0;  // the solid part: the pipeline held (a simulation) or issue to retire (a trace)
  double tail = 0;            // a thin line on to this time: in flight until retirement (tail <= end: none)
  std::string label;          // the instruction
  std::string detail;         // its iteration, "A=2"
  std::string tooltip;
  bool highlight = false;  // the step where spec and impl part
  bool ghost = false;      // not issued: drawn dashed (the instruction one side could issue)
};

struct TimelineSpan {
  enum class Kind { Stall, Barrier, Sequencer };
  std::size_t lane = 0;
  double start = 0, end = 0;
  Kind kind = Kind::Stall;
  std::string tooltip;
};

struct TimelineMark {  // a dashed vertical line across every lane
  double at = 0;
  std::string label;
};

struct TimelineArrow {
  std::size_t from_lane = 0, to_lane = 0;
  double from = 0, to = 0;
  std::string label;  // lines separated by '\n'
  bool highlight = false;
  double label_at = -1;  // >= 0: the label is a block starting at this time, centred on to_lane
};

struct Timeline {
  std::string title, subtitle;
  std::string unit = "cycles";
  std::string box_legend = "instruction: pipeline held, then in flight to retirement";
  std::string highlight_legend = "the step where spec and impl part";
  std::string highlight_suffix = ": spec and impl part here";  // after a highlighted box's name
  double t0 = 0, t1 = 0;
  std::vector<std::string> lanes;
  std::vector<TimelineBox> boxes;
  std::vector<TimelineSpan> spans;
  std::vector<TimelineMark> marks;
  std::vector<TimelineArrow> arrows;
  std::vector<std::string> notes;  // lines under the picture
  double next_page = -1;           // >= 0: the range asked for was cut here (SvgWindow::max_page)
};

// Which part of a long simulation to draw: [from, to) in cycles; `to` = 0 means up to the issue
// of the `max_instances`-th instruction (or the makespan). A range given holds at most
// `max_page` instructions: past them the picture ends at the next one's issue and `next_page`
// says where the next page starts (issue 43: one range drew a picture of 5.1 GB).
struct SvgWindow {
  double from = 0, to = 0;
  std::size_t max_instances = 80;
  std::size_t max_page = 2000;
};
// "FROM:TO" in cycles (rule "bad-range").
model::Result<SvgWindow> parse_window(const std::string& text);

// The simulation must have been recorded (SimOptions::record).
Timeline simulation_timeline(const Simulation& s, const semantics::CompiledProgram& code, const SvgWindow& w = {});

// "A=2", "m=1 n=2 k=3": an instance's iteration over its loops.
std::string iteration_label(const semantics::CompiledProgram& code,
                            const std::vector<std::pair<model::LoopId, std::uint32_t>>& iters);

}  // namespace syncbisim::timing
