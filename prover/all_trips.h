#pragma once
// One verdict for every trip count (`check --all-trips`, docs/prover.md "check --all-trips"): the
// prover on every consumer and the explorer on the interleavings at bounded trips. `bisimilar for
// all trip counts` only when every consumer is proved safe and exact and the bounded exploration
// is complete and clean; a refutation from either side is the verdict; otherwise the explorer's
// bounded verdict, with the consumers not proved and why.
#include <string>
#include <vector>

#include "checker/check_result.h"
#include "prover/prove.h"

namespace syncbisim::prover {

struct AllTripsVerdict {
  checker::Verdict verdict = checker::Verdict::Inconclusive;
  bool all_trip_counts = false;  // the verdict holds for every trip count
  // Where a violation verdict comes from: the explorer's trace (shortest at the bounded trips)
  // when it found one, else the prover's witness.
  bool from_prover = false;
  const ConsumerResult* consumer = nullptr;  // from_prover: the refuted consumer ...
  const Property* property = nullptr;        // ... and property
  std::vector<std::string> not_proved;       // "C (E1): exact unknown: ..." for the rest
};

// `explored` is the exploration at bounded trips (`exhaustive`: no state or time limit cut it);
// `capped`: a trip cap cut some range, so the exploration alone never says bisimilar.
AllTripsVerdict all_trips_verdict(const ProveResult& proved, const checker::CheckResult& explored, bool capped);

}  // namespace syncbisim::prover
