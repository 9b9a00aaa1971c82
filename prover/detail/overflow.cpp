// The terms of the overflow questions (docs/prover.md "Overflow"): the value a register write
// writes, and the part of a semaphore an engine signalled since its last reset, just after one of
// its signals retires. Both read only the walk of one engine (registers are an engine's own,
// docs/semantics.md §4; an engine retires in issue order, §3), so they need none of the
// frontier facts the consumers' queries rest on. Values are Z3 integers: nothing wraps, whatever
// the width asked about.
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

smt::Term Encoder::written_value(const RegWrite& w) { return expr_value(w.expr, consumer_point(), 0).v; }

Encoder::OwnSignals Encoder::own_signals_after(const std::string& sem) {
  const auto& ix = places_.index();
  const auto c = consumer_point();
  // The signals of sem on this engine, and the one at the point (just retired).
  std::vector<model::InstrId> signals;
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
    const auto& p = places_.instr(i);
    if (p.engine == engine_ && p.signal && p.signal->sem == sem) signals.push_back(i);
  }
  auto after = [&](model::InstrId i) {
    const auto& p = places_.instr(i);
    auto n = count(i, c);
    if (p.at.loop == point_.loop && p.at.stmt == point_.stmt && p.at.item == point_.item) n = n + 1;
    return n;
  };
  auto since_start = [&] {
    std::vector<smt::Term> parts;
    for (const auto i : signals) parts.push_back(places_.instr(i).signal->add * after(i));
    return ctx_.sum(parts);
  };
  bool ever_reset = false;
  for (const auto& b : places_.barriers()) ever_reset = ever_reset || resets(b, sem);
  if (!ever_reset) return {since_start(), true, ""};
  std::string why = places_.barrier_misalignment();
  if (why.empty() && !barriers_shared_)
    why =
        "a barrier lies in a loop with a per-engine trip rule (paper §7.5), so engines may meet different numbers "
        "of barriers";
  std::vector<Spot> cases;
  if (why.empty()) {
    try {
      for (const auto i : signals) R(i);  // counted at the resets found (counts_at reads R_'s keys)
      cases = last_reset(sem);
    } catch (const Outside& o) {
      why = o.reason;
    }
  }
  if (!why.empty()) return {since_start(), false, "its last reset is not placed (" + why + ")"};
  // Per case (exclusive guards): what ran since that release, the release having found every
  // engine drained at that barrier (docs/prover.md "Impl side").
  std::optional<smt::Term> value;
  for (std::size_t k = cases.size(); k-- > 0;) {
    const bool reset = cases[k].in_frame() || cases[k].outer->at;
    const auto at = reset ? counts_at(cases[k]) : std::map<model::InstrId, smt::Term>{};
    std::vector<smt::Term> parts;
    for (const auto i : signals) {
      auto n = after(i);
      if (reset) n = n - at.at(i);
      parts.push_back(places_.instr(i).signal->add * n);
    }
    const auto v = ctx_.sum(parts);
    value = value ? ite(cases[k].guard, v, *value) : v;
  }
  return {*value, true, ""};
}

}  // namespace syncbisim::prover::detail
