#include "prover/all_trips_report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "checker/explorer.h"
#include "checker/report.h"
#include "model/decimal.h"
#include "prover/report.h"

namespace syncbisim::prover {

AllTripsRun run_all_trips(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
                          const model::ProgramIndex& impl_ix, const checker::ProgramPair& pair,
                          const AllTripsOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  // The seconds still allowed (0: no limit); never below a few milliseconds, so that a side
  // started late still answers (inconclusive) rather than not at all.
  const auto left = [&]() -> double {
    if (options.max_seconds <= 0) return 0;
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::max(0.01, options.max_seconds - spent);
  };
  const auto phase = [&](const std::string& what) {
    if (options.phase) options.phase(what);
  };
  AllTripsRun r;
  r.trip_cap = options.trip_cap;
  r.capped = !pair.cut().empty();
  // Every trip count: the prover (on the programs as written, not capped).
  ProveOptions po;
  po.z3_timeout_ms = options.z3_timeout_ms;
  po.widths = options.widths;  // the overflow questions at the widths the explorer holds values to
  po.jobs = options.prover_jobs;
  if (options.max_seconds > 0) {
    // Each query and each directed run within the seconds left; a command's watcher cuts the rest.
    const double seconds = left();
    po.z3_timeout_ms = std::min(po.z3_timeout_ms, static_cast<unsigned>(seconds * 1000) + 1);
    po.directed_max_seconds = std::min(po.directed_max_seconds, seconds);
    po.shorten_max_seconds = std::min(po.shorten_max_seconds, seconds);
  }
  phase("proving");
  r.proved = prove(spec, spec_ix, impl, impl_ix, po);
  // The interleavings at bounded trips: the explorer on the capped pair, one thread.
  checker::CheckOptions o;
  o.max_states = options.max_states;
  phase("exploring at bounded trips");
  o.max_seconds = left();
  r.explored = checker::check(pair.lockstep(), o);
  // The search saw only the seconds left: its limit is named with the number given.
  if (options.max_seconds > 0 && r.explored.limit.rfind("max-seconds", 0) == 0) {
    char given[64];
    std::snprintf(given, sizeof given, "max-seconds %g", options.max_seconds);
    r.explored.limit = given;
  }
  return r;
}

std::string all_trips_verdict_line(const AllTripsVerdict& v) {
  return v.all_trip_counts ? "bisimilar for all trip counts" : checker::to_string(v.verdict);
}

std::string render_all_trips_text(const checker::ProgramPair& pair, const model::Program& spec, const AllTripsRun& r) {
  const auto v = r.verdict();
  const auto& proved = r.proved;
  const auto& explored = r.explored;
  std::size_t proved_n = 0;
  for (const auto& c : proved.consumers) proved_n += c.answer == Answer::Proved;
  const auto bound = "trips capped at " + std::to_string(r.trip_cap) + (r.capped ? "" : " (no range was cut)");
  std::string out = all_trips_verdict_line(v) + "\n";
  out += "prover: " + std::to_string(proved_n) + " of " + std::to_string(proved.consumers.size()) +
         " consumers proved safe and exact for every trip count (" + model::fixed(proved.seconds, 3) + " s)\n";
  out += "explorer: " + std::to_string(explored.states) + " states, " + (explored.exhaustive ? "complete" : "cut") +
         (explored.limit.empty() ? "" : " (limit: " + explored.limit + ")") + " at " + bound + " (" +
         model::fixed(explored.seconds, 3) + " s)\n";
  if (v.from_prover) {
    out += "\nfound by the prover:\n" + consumer_line(*v.consumer) + "\n";
    out += witness_text(proved, *v.property->witness, "  ");
  } else if (v.verdict != checker::Verdict::Bisimilar && v.verdict != checker::Verdict::Inconclusive) {
    // The explorer's report, without its verdict line (the first line above).
    const auto text = checker::render_text(pair.lockstep(), spec, explored);
    out += "\nfound by the explorer:\n" + text.substr(text.find('\n') + 1);
  }
  if (!v.all_trip_counts && !v.not_proved.empty()) {
    out += "\nnot proved for every trip count:\n";
    for (const auto& line : v.not_proved) out += "  " + line + "\n";
  }
  return out;
}

nlohmann::json render_all_trips_json(const checker::ProgramPair& pair, const model::Program& spec,
                                     const AllTripsRun& r) {
  const auto v = r.verdict();
  nlohmann::json j{{"syncbisim", "check-all-trips/1"},
                   {"verdict", all_trips_verdict_line(v)},
                   {"all_trip_counts", v.all_trip_counts},
                   {"found_by", v.from_prover ? "prover" : "explorer"},
                   {"not_proved", v.not_proved},
                   {"prover", render_json(r.proved)},
                   {"explorer", checker::render_json(pair.lockstep(), spec, r.explored)}};
  j["explorer"]["trip_cap"] = r.trip_cap;
  return j;
}

int all_trips_exit_status(const AllTripsRun& r) { return checker::exit_status(r.verdict().verdict); }

}  // namespace syncbisim::prover
