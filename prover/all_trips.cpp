#include "prover/all_trips.h"

#include "prover/report.h"

namespace syncbisim::prover {

AllTripsVerdict all_trips_verdict(const ProveResult& proved, const checker::CheckResult& explored, bool capped) {
  AllTripsVerdict out;
  // The prover's refutations, an under-synchronization first (it is unsafe).
  const ConsumerResult* under = nullptr;
  const ConsumerResult* over = nullptr;
  for (const auto& c : proved.consumers) {
    if (!under && c.safe.answer == Answer::Refuted) under = &c;
    if (!over && c.exact.answer == Answer::Refuted) over = &c;
    if (c.answer != Answer::Proved) out.not_proved.push_back(consumer_line(c));
  }
  // An overflow (or an undecided one) keeps the prover's verdict from `proved`, so the combined
  // verdict is never "for all trip counts"; say why among what is not proved.
  for (const auto& o : proved.overflows)
    if (o.answer != Answer::Proved) out.not_proved.push_back(overflow_line(o));
  // As check ranks them (checker::verdict_of): under-synchronization, over-synchronization,
  // a deadlock of the spec itself; the explorer's trace first, being shortest at its trips.
  const auto bounded = explored.verdict;
  auto from_prover = [&](const ConsumerResult* c, bool safe) {
    out.verdict = safe ? checker::Verdict::UnderSynchronized : checker::Verdict::OverSynchronized;
    out.from_prover = true;
    out.consumer = c;
    out.property = safe ? &c->safe : &c->exact;
    return out;
  };
  if (bounded == checker::Verdict::UnderSynchronized) {
    out.verdict = bounded;
    return out;
  }
  if (under) return from_prover(under, true);
  if (bounded == checker::Verdict::OverSynchronized) {
    out.verdict = bounded;
    return out;
  }
  if (over) return from_prover(over, false);
  if (bounded == checker::Verdict::SpecDeadlock) {
    out.verdict = bounded;
    return out;
  }
  // The consumers' answers leave the spec's own deadlocks, and barriers under per-engine rules, to
  // the explorer, which saw only the trips up to the cap: past it, unless neither is shown able to
  // deadlock, nothing is claimed.
  const bool deadlock_past_cap = capped && !proved.may_deadlock.empty();
  if (deadlock_past_cap)
    out.not_proved.push_back("deadlock freedom past the trip cap: " + proved.may_deadlock +
                             " (raise --max-trip to explore further)");
  if (proved.verdict == Answer::Proved && explored.exhaustive && bounded == checker::Verdict::Bisimilar &&
      !deadlock_past_cap) {
    out.verdict = checker::Verdict::Bisimilar;
    out.all_trip_counts = true;
    return out;
  }
  // The bounded verdict, as check says it: a capped search never says bisimilar.
  out.verdict = capped && bounded == checker::Verdict::Bisimilar ? checker::Verdict::Inconclusive : bounded;
  return out;
}

}  // namespace syncbisim::prover
