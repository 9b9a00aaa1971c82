#include "cli/check_report.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "allocator/closed_form.h"
#include "checker/report.h"
#include "formats/load.h"
#include "latency/price.h"

namespace syncbisim::cli {

namespace {

// The line that says the search was distributed, and what it cost on the wire.
std::string wire_line(const DistributedFigures& d, std::uint64_t states) {
  char line[200];
  std::snprintf(line, sizeof line, "distributed: %d ranks, %.1f MiB sent between them, %.1f bytes per state\n", d.ranks,
                d.sent_bytes / 1048576.0, static_cast<double>(d.sent_bytes) / (states > 0 ? states : 1));
  return line;
}

}  // namespace

checker::ReportHints report_hints(const LoadedPair& pair, const checker::CheckResult& r) {
  // Under a mismatch, the wait the per-loop closed form gives its dependency (issue 42).
  checker::ReportHints hints;
  if (std::any_of(r.violations.begin(), r.violations.end(), [](const checker::Violation& v) {
        return v.kind == checker::ViolationKind::UnderSync || v.kind == checker::ViolationKind::OverSync;
      }))
    hints.closed_forms = allocator::per_loop_closed_forms(pair.spec.program, pair.spec.index);
  return hints;
}

int print_check_result(const LoadedPair& pair, const checker::CheckResult& r, const CheckReportOptions& o) {
  const auto& both = pair.lockstep();
  if (!o.trace_out.empty()) {
    if (auto s = formats::write_file_atomically(o.trace_out, checker::traces_json(both, r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"); !s) {
      auto d = s.error();
      d.file = o.trace_out;
      return input_error(d);
    }
  }
  // An over-synchronization gets its price in cycles on the timing model (docs/timing.md).
  std::optional<latency::Price> price;
  if (r.verdict == checker::Verdict::OverSynchronized)
    price = latency::price_over_synchronization(pair.spec.program, pair.spec.index, pair.impl.program, pair.impl.index);
  const auto hints = report_hints(pair, r);
  if (o.json) {
    auto j = checker::render_json(both, pair.spec.program, r, hints);
    if (price) j["price"] = latency::price_json(*price);
    if (o.coverage) j["coverage"] = o.coverage->render_json();
    if (o.distributed) j["distributed"] = {{"ranks", o.distributed->ranks}, {"sent_bytes", o.distributed->sent_bytes}};
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << checker::render_text(both, pair.spec.program, r, hints) << (price ? latency::price_text(*price) : "");
    if (o.distributed) std::cout << wire_line(*o.distributed, r.states);
    if (o.coverage) std::cout << "\n" << o.coverage->render_text();
  }
  return checker::exit_status(r.verdict);
}

}  // namespace syncbisim::cli
