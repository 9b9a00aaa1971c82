// The terms of the overflow questions (docs/prover.md "Overflow"): the value a register write
// writes and every value its expression computes on the way, and the part of a semaphore an
// engine signalled since its last reset, just after one of its signals retires (with a bound on
// the other engines' parts then). Both read only the walk of one engine (registers are an engine's own,
// docs/semantics.md §4; an engine retires in issue order, §3), so they need none of the
// frontier facts the consumers' queries rest on. Values are Z3 integers: nothing wraps, whatever
// the width asked about.
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

smt::Term Encoder::written_value(const RegWrite& w) { return expr_value(w.expr, consumer_point(), 0).v; }

smt::Term Encoder::node_value(const RegWrite& w, std::uint32_t node) {
  // Children come before their parents (model/expr.h): the nodes up to `node` are an expression
  // whose root is that node.
  model::Expr prefix;
  prefix.nodes.assign(w.expr.nodes.begin(), w.expr.nodes.begin() + node + 1);
  return expr_value(prefix, consumer_point(), 0).v;
}

Encoder::OwnSignals Encoder::own_signals_after(const std::string& sem,
                                               const std::map<model::InstrId, std::uint64_t>& caps) {
  const auto& ix = places_.index();
  const auto c = consumer_point();
  // The signals of sem on this engine, and the one at the point (just retired); and those of the
  // other engines.
  std::vector<model::InstrId> signals, others;
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
    const auto& p = places_.instr(i);
    if (!p.signal || p.signal->sem != sem) continue;
    (p.engine == engine_ ? signals : others).push_back(i);
  }
  auto after = [&](model::InstrId i) {
    const auto& p = places_.instr(i);
    auto n = count(i, c);
    if (p.at.loop == point_.loop && p.at.stmt == point_.stmt && p.at.item == point_.item) n = n + 1;
    return n;
  };
  // Another engine h has retired at most what it issued before a place it cannot have passed
  // yet: the next barrier of this engine after the point (not released, since this engine has
  // not arrived: it has just retired an instruction before it), with aligned barriers that every
  // engine meets alike; else the end of h's walk (every trip of the walk's loops, the ones still
  // to come within their rules). Counts on h's walk are this walk's only for instructions no
  // per-engine rule encloses (paper §7.1); the others' parts are bounded by their trip bounds
  // (`caps`; none given: unbounded, i.e. the largest 64-bit natural, past every width).
  std::optional<Point> next;
  const bool aligned = places_.has_barrier() && places_.barrier_misalignment().empty() && barriers_shared_;
  if (aligned) next = next_barrier(c);
  auto upper = [&](model::InstrId i) {
    const auto h = places_.instr(i).engine;
    if (next) return count(i, on_engine(*next, h));
    return count(i, Point{model::kTop, 0, static_cast<std::uint32_t>(places_.body(model::kTop).size()), 0, h});
  };
  auto cap = [&](model::InstrId i) {
    const auto it = caps.find(i);
    return ctx_.nat(it == caps.end() ? UINT64_MAX : it->second);
  };
  // The other engines' parts since a reset whose counts are `at` (none: since the start).
  auto others_since = [&](const std::map<model::InstrId, smt::Term>* at) {
    std::vector<smt::Term> parts;
    for (const auto i : others) {
      if (!countable(i)) {
        parts.push_back(cap(i));
        continue;
      }
      auto n = upper(i);
      if (at) n = n - at->at(i);
      parts.push_back(places_.instr(i).signal->add * n);
    }
    return ctx_.sum(parts);
  };
  auto since_start = [&] {
    std::vector<smt::Term> parts;
    for (const auto i : signals) parts.push_back(places_.instr(i).signal->add * after(i));
    return ctx_.sum(parts);
  };
  bool ever_reset = false;
  for (const auto& b : places_.barriers()) ever_reset = ever_reset || resets(b, sem);
  if (!ever_reset) {
    const auto own = since_start();
    return {own, true, "", own + others_since(nullptr)};
  }
  std::string why = places_.barrier_misalignment();
  if (why.empty() && !barriers_shared_)
    why =
        "a barrier lies in a loop with a per-engine trip rule (paper §7.5), so engines may meet different numbers "
        "of barriers";
  std::vector<Spot> cases;
  if (why.empty()) {
    try {
      // Counted at the resets found (counts_at reads R_'s keys): every signal of sem.
      for (const auto i : signals) R(i);
      for (const auto i : others) R(i);
      cases = last_reset(sem);
    } catch (const Outside& o) {
      why = o.reason;
    }
  }
  if (!why.empty()) {
    const auto own = since_start();
    return {own, false, "its last reset is not placed (" + why + ")", own + others_since(nullptr)};
  }
  // Per case (exclusive guards): what ran since that release, the release having found every
  // engine drained at that barrier (docs/prover.md "Impl side").
  std::optional<smt::Term> value, total;
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
    const auto t = v + others_since(reset ? &at : nullptr);
    value = value ? ite(cases[k].guard, v, *value) : v;
    total = total ? ite(cases[k].guard, t, *total) : t;
  }
  return {*value, true, "", *total};
}

}  // namespace syncbisim::prover::detail
