// The spec side without sums over unknown ranges (docs/prover.md "Spec side"): for a dependency carried at S with
// offset k, owed = E_P - (c_{j-k+1} + ... + c_j), and it underflows iff j_S <= k.
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

z3::expr Encoder::deps_hold(const std::vector<const analysis::DependencyInfo*>& deps) {
  z3::expr all = ctx.bool_val(true);
  const auto& ix = places.index();
  for (const auto* d : deps) {
    const auto label = spec_ix.instrs[d->producer].name + " -> " + spec_ix.instrs[d->consumer].name;
    for (std::size_t i = 0; i + 1 < d->distance.size(); ++i)
      if (d->distance[i] != 0)
        throw Outside{"dependency " + label + ": distance on a loop above the innermost common one (multi-level)"};
    const auto S = *ix.loop(spec_ix.loops[d->S].name);
    const auto P = *ix.loop(spec_ix.loops[d->P].name);
    const auto producer = *ix.instr(spec_ix.instrs[d->producer].name);
    const auto k = d->offset;
    const auto kk = ctx.int_val(static_cast<unsigned>(k));
    const auto jS = j(S);
    z3::expr owed = ctx.int_val(0);
    if (P == S) {
      // H_e(i, S) = 1 for every iteration: owed = E_S - k.
      owed = E(S) - kk;
    } else if (k == 0) {
      owed = E(P);  // t = v: every entry of P so far
    } else {
      // c_j: P's entries in the current S iteration (N(P, S) knows whether P precedes c);
      // c_{j-k+1} .. c_{j-1}: earlier iterations of this trip, free (within P's rule when P is
      // directly in S). They exist only when j_S > k, so their constraint is conditional.
      z3::expr window = N(P, S);
      for (std::uint32_t i = 1; i < k; ++i) {
        auto c = nat("c_" + ix.loops[P].name + "_" + std::to_string(i));
        if (places.parent(P) == S) {
          const auto b = bounds_on_engine(P);
          general.push_back(z3::implies(jS > kk, c >= ctx.int_val(static_cast<std::uint64_t>(b.lo)) &&
                                                     c <= ctx.int_val(static_cast<std::uint64_t>(b.hi))));
        }
        family.push_back(c == full(P, S));
        window = window + c;
      }
      general.push_back(z3::implies(jS > kk, E(P) >= window));
      owed = E(P) - window;
    }
    all = all && (jS <= kk || R(producer) >= owed);
  }
  return all;
}

}  // namespace syncbisim::prover::detail
