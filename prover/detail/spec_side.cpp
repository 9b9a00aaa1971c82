// The spec side (docs/prover.md "Spec side"): for a dependency carried at S with offset k, the
// target underflows iff j_S <= k, and owed = Σ_{i ⪯ t} H_e(i, P) is the number of P-entries e had
// made by the end of S-iteration j_S - k, or so far when k = 0 (docs/semantics.md §2): a count of
// entries at a point of the walk. A distance at a loop D above S (multi-level) is bounded: owed
// lies between the entries before and after D-iteration j_D - δ_D.
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

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
    }
    t.satisfied = t.underflow || R(t.producer) >= t.owed;
    all.push_back(t.satisfied);
    deps_.push_back(t);
  }
  spec_ok_ = ctx_.all(all);
}

}  // namespace syncbisim::prover::detail
