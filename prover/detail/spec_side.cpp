// The spec side (docs/prover.md "Spec side"): for a dependency carried at S with offset k, the
// target underflows iff j_S <= k, and owed = Σ_{i ⪯ t} H_e(i, P) is the number of P-entries e had
// made by the end of S-iteration j_S - k, or so far when k = 0 (docs/semantics.md §2): a count of
// entries at a point of the walk. A distance at a loop D above S (multi-level) is bounded: owed
// lies between the entries before and after D-iteration j_D - δ_D.
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

std::optional<smt::Term> Encoder::window_owed(const analysis::DependencyInfo& d, std::size_t outer, const smt::Term& lo,
                                              const smt::Term& hi) {
  // Exact when every common loop below L1 = c_{outer+1} down to S, and every loop from P up to
  // S, runs one constant trip on e (L1 itself and the loops above it may vary). Then inside the
  // D-iteration α = j_D - δ_D every S-iteration holds the same number h of P-entries, and the
  // S-iterations of α that are ⪯ t number lin + 1 = Σ_{i > outer} (τ_i - 1)·W_i + 1 (τ_i = j_i - δ_i,
  // W_i the product of the trips below c_i down to S) while τ_1 is within α's trip of L1, all of
  // them otherwise, and lin + 1 exceeds all of them exactly then: owed = min(lo + h·(lin + 1), hi),
  // hi - lo being α's P-entries (α has ended: α < j_D). Docs/prover.md "Spec side"; the
  // allocator's `window` form (docs/allocator.md) is this argument on registers.
  const auto& ix = places_.index();
  auto constant_trip = [&](model::LoopId l) -> std::optional<std::uint64_t> {
    const auto b = bounds_on_engine(l);
    if (b.lo != b.hi) return std::nullopt;
    return b.lo;
  };
  const auto m = d.common.size() - 1;
  std::vector<std::uint64_t> trip(d.common.size(), 0);
  for (std::size_t i = outer + 2; i <= m; ++i) {
    const auto c = constant_trip(*ix.loop(spec_ix_.loops[d.common[i]].name));
    if (!c) return std::nullopt;
    trip[i] = *c;
  }
  const auto S = *ix.loop(spec_ix_.loops[d.S].name);
  std::uint64_t h = 1;
  for (auto x = *ix.loop(spec_ix_.loops[d.P].name); x != S; x = places_.parent(x)) {
    const auto c = constant_trip(x);
    if (!c) return std::nullopt;
    h *= *c;
  }
  // lin + 1, with W_m = 1 and W_i = T_{c_(i+1)}·W_(i+1); every τ_i >= 1 where nothing underflows.
  smt::Term lin = ctx_.nat(1);
  std::uint64_t w = 1;
  for (std::size_t i = m; i > outer; --i) {
    const auto tau = j(*ix.loop(spec_ix_.loops[d.common[i]].name)) - static_cast<std::uint64_t>(d.distance[i]);
    lin = lin + w * (tau - 1);
    w *= i > outer + 1 ? trip[i] : 1;
  }
  const auto upto = lo + h * lin;
  return ite(upto <= hi, upto, hi);
}

void Encoder::encode_spec() {
  const auto& ix = places_.index();
  std::vector<smt::Term> all;
  for (const auto* d : dep_infos_) {
    DepTerms t;
    t.info = d;
    t.S = *ix.loop(spec_ix_.loops[d->S].name);
    t.P = *ix.loop(spec_ix_.loops[d->P].name);
    t.producer = *ix.instr(spec_ix_.instrs[d->producer].name);
    t.k = d->offset;
    std::size_t outer = d->distance.size();  // the outermost common loop with a non-zero distance
    for (std::size_t i = 0; i < d->distance.size(); ++i)
      if (d->distance[i] != 0) {
        outer = i;
        break;
      }
    t.multi_level = outer + 1 < d->distance.size();
    if (!t.multi_level) {
      t.underflow = j(t.S) <= t.k;
      const auto end_of_target =
          t.k == 0 ? consumer_point()
                   : Point{t.S, t.k, static_cast<std::uint32_t>(places_.body(t.S).size()), 0, engine_};
      t.owed = C(t.P, end_of_target);
      // Counts are naturals: the entries before the window of the last k iterations.
      facts_.push_back(implies(!t.underflow, t.owed >= 0));
    } else {
      // Some component t_L = j_L - δ_L <= 0 of the target: nothing is owed.
      std::vector<smt::Term> under;
      for (std::size_t i = 0; i < d->distance.size(); ++i)
        if (d->distance[i] != 0) under.push_back(j(*ix.loop(spec_ix_.loops[d->common[i]].name)) <= d->distance[i]);
      t.underflow = ctx_.any(under);
      // The target lies in D-iteration j_D - δ_D: every S-iteration of the D-iterations before
      // it precedes the target, none after it does.
      const auto D = *ix.loop(spec_ix_.loops[d->common[outer]].name);
      const auto back = d->distance[outer];
      const auto lo = C(t.P, Point{D, back, 0, 0, engine_});
      const auto hi = C(t.P, Point{D, back, static_cast<std::uint32_t>(places_.body(D).size()), 0, engine_});
      t.owed = nat("owed_" + spec_ix_.instrs[d->producer].name);
      facts_.push_back(implies(!t.underflow, t.owed >= lo && t.owed <= hi && lo >= 0));
      if (const auto exact = window_owed(*d, outer, lo, hi)) facts_.push_back(implies(!t.underflow, t.owed == *exact));
    }
    t.satisfied = t.underflow || R(t.producer) >= t.owed;
    all.push_back(t.satisfied);
    deps_.push_back(t);
  }
  spec_ok_ = ctx_.all(all);
}

}  // namespace syncbisim::prover::detail
