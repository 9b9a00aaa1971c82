// check_all_trips() of the public API: `syncbisim check --all-trips` (docs/prover.md "check
// --all-trips"), the prover on every consumer plus the explorer at bounded trips, through the
// library calls the command makes (prover/all_trips_report.h). Z3 stays behind prover/.
#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "api/detail/results.h"
#include "checker/program_pair.h"
#include "checker/report.h"
#include "prover/all_trips_report.h"

namespace syncbisim {

int AllTripsResult::exit_status() const {
  return verdict == Verdict::Bisimilar ? 0 : verdict == Verdict::Inconclusive ? 3 : 1;
}

AllTripsResult check_all_trips(const Program& spec, const Program& impl, const AllTripsOptions& options) {
  api::detail::require_order(spec, impl);
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  const auto widths = api::detail::widths(options.register_bits, options.semaphore_bits);
  // As the command: commits fused, every dynamic range capped for the explorer (the prover works
  // on the programs as written).
  const std::uint32_t cap = options.max_trip > 0 ? options.max_trip : prover::kDefaultTripCap;
  const auto [matched, pair] =
      api::detail::pair_of(spec, impl, checker::PairOptions{semantics::Options{true, widths}, cap});
  prover::AllTripsOptions o;
  o.trip_cap = cap;
  o.max_states = options.max_states;
  o.max_seconds = options.max_seconds;
  o.z3_timeout_ms = options.z3_timeout_ms;
  o.prover_jobs = options.jobs;
  o.widths = widths;
  const auto r = prover::run_all_trips(matched.data().program, matched.data().index, impl.data().program,
                                       impl.data().index, *pair, o);
  const auto v = r.verdict();
  const auto& both = pair->lockstep();
  const auto j = prover::render_all_trips_json(*pair, matched.data().program, r);
  AllTripsResult out;
  out.verdict = api::detail::verdict_of(v.verdict);
  out.all_trip_counts = v.all_trip_counts;
  out.verdict_line = prover::all_trips_verdict_line(v);
  out.found_by = v.from_prover ? "prover" : "explorer";
  out.not_proved = v.not_proved;
  // Each part as its own command would print it (prove; check at the capped trips), its JSON the
  // part the combined document holds.
  out.prover = api::detail::prove_result(r.proved);
  out.explorer = api::detail::check_result(both, r.explored, j.at("explorer"),
                                           checker::render_text(both, matched.data().program, r.explored));
  out.trip_cap = cap;
  out.text = prover::render_all_trips_text(*pair, matched.data().program, r);
  out.json = formats::json_text(j);
  return out;
}

}  // namespace syncbisim
