#include "cli/all_trips.h"

#include <algorithm>
#include <iostream>

#include "checker/explorer.h"
#include "checker/report.h"
#include "cli/inputs.h"
#include "model/decimal.h"
#include "prover/all_trips.h"
#include "prover/prove.h"
#include "prover/report.h"

namespace syncbisim::cli {

int check_all_trips(const AllTripsArgs& a) {
  int status = 0;
  // The interleavings at bounded trips: the explorer, every range capped.
  const auto cap = a.max_trip > 0 ? a.max_trip : kDefaultTripCap;
  const auto phase = [&](const std::string& what) {
    if (a.deadline) a.deadline->phase(what);
  };
  phase("reading and indexing the inputs");
  auto pair = load_pair(a.spec, a.impl, status, checker::PairOptions{semantics::Options{true, a.widths}, cap});
  if (!pair) return status;
  // Every trip count: the prover (on the programs as written, not capped).
  prover::ProveOptions po;
  po.widths = a.widths;  // the overflow questions at the widths the explorer holds values to
  po.jobs = a.prover_jobs;
  if (a.deadline && a.deadline->limited()) {
    // Each query and each directed run within the seconds left; the watcher cuts the rest.
    const double left = a.deadline->left();
    po.z3_timeout_ms = std::min(po.z3_timeout_ms, static_cast<unsigned>(left * 1000) + 1);
    po.directed_max_seconds = std::min(po.directed_max_seconds, left);
    po.shorten_max_seconds = std::min(po.shorten_max_seconds, left);
  }
  phase("proving");
  const auto proved = prover::prove(pair->spec.program, pair->spec.index, pair->impl.program, pair->impl.index, po);
  const bool capped = !pair->checked->cut().empty();
  const auto& both = pair->lockstep();
  checker::CheckOptions o;
  o.max_states = a.max_states;
  phase("exploring at bounded trips");
  o.max_seconds = a.deadline ? a.deadline->left() : 0;
  auto explored = checker::check(both, o);
  if (a.deadline) explored.limit = a.deadline->as_given(explored.limit);
  phase("reporting");
  const auto v = prover::all_trips_verdict(proved, explored, capped);

  const std::string verdict = v.all_trip_counts ? "bisimilar for all trip counts" : checker::to_string(v.verdict);
  if (!a.trace_out.empty()) {
    const auto text = v.from_prover ? prover::traces_json(proved) : checker::traces_json(both, explored).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (auto s = formats::write_file_atomically(a.trace_out, text); !s) {
      auto d = s.error();
      d.file = a.trace_out;
      return input_error(d);
    }
  }
  std::size_t proved_n = 0;
  for (const auto& c : proved.consumers) proved_n += c.answer == prover::Answer::Proved;
  const auto bound = "trips capped at " + std::to_string(cap) + (capped ? "" : " (no range was cut)");
  if (a.json) {
    nlohmann::json j{{"syncbisim", "check-all-trips/1"},
                     {"verdict", verdict},
                     {"all_trip_counts", v.all_trip_counts},
                     {"found_by", v.from_prover ? "prover" : "explorer"},
                     {"not_proved", v.not_proved},
                     {"prover", prover::render_json(proved)},
                     {"explorer", checker::render_json(both, pair->spec.program, explored)}};
    j["explorer"]["trip_cap"] = cap;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return checker::exit_status(v.verdict);
  }
  std::cout << verdict << "\n";
  std::cout << "prover: " << proved_n << " of " << proved.consumers.size()
            << " consumers proved safe and exact for every trip count (" << model::fixed(proved.seconds, 3) << " s)\n";
  std::cout << "explorer: " << explored.states << " states, " << (explored.exhaustive ? "complete" : "cut")
            << (explored.limit.empty() ? "" : " (limit: " + explored.limit + ")") << " at " << bound << " ("
            << model::fixed(explored.seconds, 3) << " s)\n";
  if (v.from_prover) {
    std::cout << "\nfound by the prover:\n" << prover::consumer_line(*v.consumer) << "\n";
    std::cout << prover::witness_text(proved, *v.property->witness, "  ");
  } else if (v.verdict != checker::Verdict::Bisimilar && v.verdict != checker::Verdict::Inconclusive) {
    // The explorer's report, without its verdict line (printed above).
    const auto text = checker::render_text(both, pair->spec.program, explored);
    std::cout << "\nfound by the explorer:\n" << text.substr(text.find('\n') + 1);
  }
  if (!v.all_trip_counts && !v.not_proved.empty()) {
    std::cout << "\nnot proved for every trip count:\n";
    for (const auto& line : v.not_proved) std::cout << "  " << line << "\n";
  }
  return checker::exit_status(v.verdict);
}

}  // namespace syncbisim::cli
