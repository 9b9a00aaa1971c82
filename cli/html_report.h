#pragma once
// `check`, `prove` and `simulate --html FILE`: one self-contained page to look at a result
// (docs/report.md). Inline CSS and JavaScript only, a Content-Security-Policy that forbids every
// request, every name and path HTML-escaped, the data for the scripts in a JSON block. Without
// JavaScript the page still shows the verdict, both programs, the traces as tables, the
// timelines, the coverage and the footprints; with it a trace is stepped through (Prev / Next,
// the arrow keys), the current step highlighted in the table and in both programs, and a panel
// shows both sides' numbers at that step. Written as every other output file is
// (formats::write_file_atomically). Each function returns 0, or 2 after printing the error.
#include <cstdint>
#include <string>

#include "checker/check_result.h"
#include "checker/coverage.h"
#include "checker/explorer.h"
#include "cli/footprint_report.h"
#include "cli/inputs.h"
#include "prover/prove.h"
#include "timing/simulate.h"
#include "timing/timeline.h"

namespace syncbisim::cli {

// The files as the user named them (shown on the page, escaped).
struct HtmlSources {
  std::string spec_path, impl_path;
  const FootprintJudgement* footprints = nullptr;  // the spec's footprints judged, if it has them
};

struct HtmlCheck {
  const checker::Coverage* coverage = nullptr;  // check --coverage ran: its figures
  // Without --coverage: the search's options, to search once more with coverage when the first
  // search was exhaustive and small (at most kCoverageRerunStates states); nullptr: never.
  const checker::CheckOptions* rerun = nullptr;
  double seconds_left = 0;  // > 0: what --max-seconds leaves the second search
};
// A search of at most this many states is searched again for the page's coverage.
inline constexpr std::uint64_t kCoverageRerunStates = 100000;

int write_check_html(const std::string& path, const HtmlSources& in, const LoadedPair& pair,
                     const checker::CheckResult& r, const HtmlCheck& how);
// `check` or `prove` whose verdict is a race of the written graph (in.footprints).
int write_race_html(const std::string& path, const std::string& command, const HtmlSources& in,
                    const LoadedPair& pair);
int write_prove_html(const std::string& path, const HtmlSources& in, const LoadedPair& pair,
                     const prover::ProveResult& r);
// `window` is the part of the run the timeline draws (simulate --svg-range); `s` was recorded.
int write_simulate_html(const std::string& path, const HtmlSources& in, const LoadedPair& pair,
                        const timing::Simulation& s, const timing::SvgWindow& window);

}  // namespace syncbisim::cli
