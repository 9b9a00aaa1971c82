#include "cli/all_trips.h"

#include <iostream>

#include "checker/report.h"
#include "cli/inputs.h"
#include "formats/json_text.h"
#include "formats/load.h"
#include "prover/report.h"

namespace syncbisim::cli {

int check_all_trips(const AllTripsArgs& a) {
  int status = 0;
  // The interleavings at bounded trips: the explorer, every range capped.
  const auto cap = a.max_trip > 0 ? a.max_trip : kDefaultTripCap;
  if (a.deadline) a.deadline->phase("reading and indexing the inputs");
  auto pair = load_pair(a.spec, a.impl, status, checker::PairOptions{semantics::Options{true, a.widths}, cap});
  if (!pair) return status;
  prover::AllTripsOptions o;
  o.trip_cap = cap;
  o.max_states = a.max_states;
  o.widths = a.widths;
  o.prover_jobs = a.prover_jobs;
  if (a.deadline) {
    // --max-seconds counts from the process's start: the run gets the seconds left now (0 when
    // there is no limit), and the watcher is told each phase.
    o.max_seconds = a.deadline->left();
    o.phase = [d = a.deadline](const std::string& what) { d->phase(what); };
  }
  auto r = prover::run_all_trips(pair->spec.program, pair->spec.index, pair->impl.program, pair->impl.index,
                                 *pair->checked, o);
  // The limit as the user gave it (--max-seconds N, not the seconds that were left).
  if (a.deadline) r.explored.limit = a.deadline->as_given(r.explored.limit);
  if (a.deadline) a.deadline->phase("reporting");
  if (!a.trace_out.empty()) {
    const auto text = r.verdict().from_prover ? prover::traces_json(r.proved)
                                              : formats::json_text(checker::traces_json(pair->lockstep(), r.explored));
    if (auto s = formats::write_file_atomically(a.trace_out, text); !s) {
      auto d = s.error();
      d.file = a.trace_out;
      return input_error(d);
    }
  }
  if (a.json)
    std::cout << formats::json_text(prover::render_all_trips_json(*pair->checked, pair->spec.program, r));
  else std::cout << prover::render_all_trips_text(*pair->checked, pair->spec.program, r);
  return prover::all_trips_exit_status(r);
}

}  // namespace syncbisim::cli
