#pragma once
// What `syncbisim check SPEC IMPL` and `syncbisim-mpi check` do with a check's result: the trace
// file (--trace-out), the price of an over-synchronization (docs/timing.md), and the report on
// stdout, text or --json (docs/checker.md, docs/formats.md). One place, so that both tools write
// the same bytes; each adds its own part (the coverage, the figures of the distributed search).
#include <cstdint>
#include <optional>
#include <string>

#include "checker/check_result.h"
#include "checker/coverage.h"
#include "cli/inputs.h"

namespace syncbisim::cli {

// syncbisim-mpi's part: the ranks and the bytes they sent each other (docs/distributed.md).
struct DistributedFigures {
  int ranks = 1;
  std::uint64_t sent_bytes = 0;
};

struct CheckReportOptions {
  std::string trace_out;                          // every violation's whole trace, as JSON (traces/1)
  bool json = false;                              // one JSON document (check/1) instead of the text
  const checker::Coverage* coverage = nullptr;    // check --coverage: after the report
  std::optional<DistributedFigures> distributed;  // syncbisim-mpi: a line (an object) after the report
};

// Writes the trace file if asked, then prints the report with its parts. Returns the check's exit
// status (checker::exit_status), or 2 after printing the error when the trace file cannot be written.
int print_check_result(const LoadedPair& pair, const checker::CheckResult& r, const CheckReportOptions& o);

}  // namespace syncbisim::cli
