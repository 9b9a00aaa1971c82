#pragma once
// A trace on the --html page (docs/report.md): one row per visible step with both sides' numbers
// at each issue, the state after it for the panel, the timeline; the script steps through it.
#include <optional>
#include <string>
#include <vector>

#include "cli/detail/html_page.h"
#include "semantics/lockstep.h"
#include "timing/trace_timeline.h"

namespace syncbisim::cli::html {

// How a trace ends: the two sides part (a mismatch), engines are stuck, a value overflows.
struct Closing {
  std::string label;  // "part", "stuck", "overflow"; "": the trace just ends
  std::string engine, instr, text;
  std::optional<semantics::Mismatch> mismatch;
  std::optional<semantics::EngineId> stuck;  // a deadlock: the engine that stands before `instr`
};

struct TraceInput {
  std::string id;           // "v1", "w2", "o1": the section is "trace-" + id
  std::string nav;          // its entry in the navigation bar
  std::string title;        // its heading
  std::string description;  // both sides' numbers at the end, as the CLI prints them
  std::string note;         // under the heading
  const semantics::Lockstep* both = nullptr;
  const std::vector<semantics::Step>* steps = nullptr;
  Closing closing;
  std::optional<timing::CounterexampleView> view;  // the timeline
};

// The trace's section: the table (and its data for the script), the panel, the timeline.
void add_trace(Page& page, TraceInput in);

}  // namespace syncbisim::cli::html
