#include "cli/check_report.h"

#include <cstdio>
#include <iostream>

#include "checker/report.h"
#include "formats/json_text.h"
#include "formats/load.h"
#include "latency/check_report.h"

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

int print_check_result(const LoadedPair& pair, const checker::CheckResult& r, const CheckReportOptions& o) {
  const auto& both = pair.lockstep();
  if (!o.trace_out.empty()) {
    if (auto s = formats::write_file_atomically(
            o.trace_out,
            formats::json_text(checker::traces_json(both, r)));
        !s) {
      auto d = s.error();
      d.file = o.trace_out;
      return input_error(d);
    }
  }
  const auto report = latency::check_report(both, pair.spec.program, pair.spec.index, pair.impl.program,
                                            pair.impl.index, r, o.coverage);
  if (o.json) {
    auto j = report.json;
    if (o.distributed) j["distributed"] = {{"ranks", o.distributed->ranks}, {"sent_bytes", o.distributed->sent_bytes}};
    std::cout << formats::json_text(j);
  } else {
    std::cout << report.text;
    if (o.distributed) std::cout << wire_line(*o.distributed, r.states);
    if (o.coverage) std::cout << "\n" << report.coverage;
  }
  return checker::exit_status(r.verdict);
}

}  // namespace syncbisim::cli
