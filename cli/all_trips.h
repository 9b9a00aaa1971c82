#pragma once
// `syncbisim check --all-trips` (docs/prover.md "check --all-trips"): the prover on every consumer
// plus the explorer at bounded trips, one verdict. A file of its own so that cmd_check.cpp only
// hands over. The run and its report are the library's (prover/all_trips_report.h, which the
// public API's check_all_trips() calls too); what is the command's stays here: the files, the
// --max-seconds watcher, --trace-out.
#include <cstdint>
#include <string>

#include "cli/deadline.h"
#include "model/value_width.h"
#include "prover/all_trips_report.h"

namespace syncbisim::cli {

struct AllTripsArgs {
  std::string spec, impl, trace_out;
  bool json = false;
  std::uint32_t max_trip = 0;  // the explorer's trip cap; 0: kDefaultTripCap
  std::uint64_t max_states = 0;
  CommandDeadline* deadline = nullptr;  // --max-seconds, from the process's start (cli/deadline.h)
  model::ValueWidths widths;  // the explorer's (docs/semantics.md "Widths")
  unsigned prover_jobs = 1;   // consumers the prover proves at once (check's --threads)
};

inline constexpr std::uint32_t kDefaultTripCap = prover::kDefaultTripCap;

// Prints the verdict and returns the exit status of `check` (0, 1, 3; 2 for bad input).
int check_all_trips(const AllTripsArgs& a);

}  // namespace syncbisim::cli
