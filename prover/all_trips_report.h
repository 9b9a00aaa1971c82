#pragma once
// `check --all-trips` run and reported (docs/prover.md "check --all-trips"): the prover on every
// consumer, the explorer on the interleavings at bounded trips, the one verdict of
// prover/all_trips.h, and the text and JSON the command prints. The command (cli/all_trips.cpp)
// and the public API's check_all_trips() both go through these, so that they print the same
// bytes; what only a command has (its --max-seconds watcher, --trace-out, file names in messages)
// stays in the command.
#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/check_result.h"
#include "checker/program_pair.h"
#include "model/index.h"
#include "model/program.h"
#include "model/value_width.h"
#include "prover/all_trips.h"
#include "prover/prove.h"

namespace syncbisim::prover {

// The explorer's trip cap when none is given (check --all-trips without --max-trip).
inline constexpr std::uint32_t kDefaultTripCap = 3;

struct AllTripsOptions {
  // The cap the pair was made with (checker::PairOptions::max_trip): the report names it.
  std::uint32_t trip_cap = kDefaultTripCap;
  std::uint64_t max_states = 0;  // the explorer's; 0: no limit
  // Seconds the whole run may take from the call (0: no limit). A plain number, so that the
  // library needs no clock of the command's: the prover's queries and directed runs are cut to
  // it, the exploration gets what is left after the prover, and a limit it hits is named with
  // this number ("max-seconds 2").
  double max_seconds = 0;
  unsigned z3_timeout_ms = 10000;  // per query (cut to max_seconds)
  unsigned prover_jobs = 1;        // consumers proved at once; the same result for any number
  model::ValueWidths widths;       // the prover's overflow questions, at the explorer's widths
  // Told what the run does next ("proving", "exploring at bounded trips"), for a watcher's
  // message; may be empty.
  std::function<void(const std::string&)> phase;
};

struct AllTripsRun {
  ProveResult proved;             // every trip count, on the programs as written
  checker::CheckResult explored;  // the interleavings at the capped trips
  std::uint32_t trip_cap = kDefaultTripCap;
  bool capped = false;  // the cap cut some range: the exploration alone never says bisimilar
  // The one verdict (prover/all_trips.h). It points into `proved`: keep this run alive while using it.
  AllTripsVerdict verdict() const { return all_trips_verdict(proved, explored, capped); }
};

// Both sides on one pair: `pair` made from `spec` and `impl` with the trip cap (and commit fusion
// and the widths), the programs validated and corresponding. The explorer runs on one thread.
AllTripsRun run_all_trips(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
                          const model::ProgramIndex& impl_ix, const checker::ProgramPair& pair,
                          const AllTripsOptions& options);

// The first line of the text and the JSON's "verdict": "bisimilar for all trip counts", or the
// verdict's word.
std::string all_trips_verdict_line(const AllTripsVerdict& v);
// What `check --all-trips` prints: the verdict line, the prover's and the explorer's figures, the
// violation found (with the prover's witness or the explorer's report), what is not proved.
std::string render_all_trips_text(const checker::ProgramPair& pair, const model::Program& spec, const AllTripsRun& r);
// What `check --all-trips --json` prints (check-all-trips/1), the prover's and the explorer's
// reports inside.
nlohmann::json render_all_trips_json(const checker::ProgramPair& pair, const model::Program& spec,
                                     const AllTripsRun& r);
// The command's exit status: 0, 1 or 3 (checker::exit_status of the one verdict).
int all_trips_exit_status(const AllTripsRun& r);

}  // namespace syncbisim::prover
