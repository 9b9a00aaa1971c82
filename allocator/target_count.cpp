#include "allocator/target_count.h"

#include "allocator/expr_build.h"
#include "allocator/trip_facts.h"

namespace syncbisim::allocator {

const char* to_string(TargetCount::Form f) {
  switch (f) {
    case TargetCount::Form::Live: return "live";
    case TargetCount::Form::Flat: return "flat";
    case TargetCount::Form::Ring: return "ring";
    case TargetCount::Form::Window: return "window";
    case TargetCount::Form::Bound: return "bound";
    case TargetCount::Form::Whole: return "whole";
    case TargetCount::Form::NeverBinds: return "never-binds";
  }
  return "?";
}

namespace {

using model::LoopId;
constexpr std::uint64_t kTooMany = std::uint64_t{1} << 40;  // products above this are not "constant"

// The product of the constant iteration counts of `loops`, or nullopt if one is not constant.
std::optional<std::uint64_t> product(const model::ProgramIndex& ix, const std::vector<LoopId>& loops) {
  std::uint64_t p = 1;
  for (auto l : loops) {
    const auto n = constant_iterations(ix.loops[l]);
    if (!n) return std::nullopt;
    p *= *n;
    if (p > kTooMany) return std::nullopt;
  }
  return p;
}

std::string name(const model::ProgramIndex& ix, LoopId l) { return ix.loops[l].name; }

// "the consumer's iteration of A" for k = 0, else "iteration v - k of A" (v: the consumer's).
std::string iteration_back(const model::ProgramIndex& ix, LoopId l, std::uint64_t k) {
  return k == 0 ? "the consumer's iteration of " + name(ix, l)
                : "iteration v - " + std::to_string(k) + " of " + name(ix, l);
}

}  // namespace

TargetCount target_count(const SpecFacts& facts, Registers& regs, const analysis::DependencyInfo& d) {
  const auto& ix = facts.ix;
  const auto& c = d.common;  // c_0 = @top .. c_m = S
  const LoopId S = d.S, P = d.P;
  TargetCount out;
  const std::string rp = P == model::kTop ? "1" : regs.r(P).to_string();

  std::size_t js = c.size();  // j*: the outermost non-zero component
  for (std::size_t j = 0; j < c.size(); ++j)
    if (d.distance[j] != 0) {
      js = j;
      break;
    }
  if (js == c.size()) {
    // Every S-iteration e has started is ⪯ v (the vectors name S-iterations in the order e runs
    // them), so the sum is every P-iteration e has started: r_P, whatever P's place.
    out.count = regs.r(P);
    out.how = "target = v, every iteration of " + name(ix, P) + " started so far: " + rp;
    return out;
  }
  for (std::size_t j = 0; j < c.size(); ++j) {
    const auto k = d.distance[j];
    if (k == 0) continue;
    if (c[j] == model::kTop || k >= max_iterations(ix.loops[c[j]])) {
      out.form = TargetCount::Form::NeverBinds;
      out.count = num(0);
      out.how = "offset " + std::to_string(k) + " at " + name(ix, c[j]) + ", which runs at most " +
                std::to_string(max_iterations(ix.loops[c[j]])) + " iterations per trip: never binds, no wait";
      return out;
    }
    // No wait while component j underflows: paper §5.5's mask, one factor per non-zero component.
    const auto f = isgt(regs.rh(c[j]), num(k));
    out.mask = out.mask ? mul(*out.mask, f) : f;
  }

  if (d.whole_iterations()) {
    // L=*: the consumer owes every P-iteration of c_j*'s iterations up to α = v_j* - δ_j*, which
    // is r_P at the start of iteration α + 1: the δ_j*-th snapshot. Exact when c_j* carries the
    // last numeric component (the loader makes the numeric part positive); with zeros between
    // c_j* and the stars the target lies inside α, and all of α is a safe bound.
    const std::uint64_t dj = d.distance[js];
    out.count = regs.snapshot(c[js], P, static_cast<std::uint32_t>(dj));
    const bool exact = js + 1 == d.whole_from;
    out.form = exact ? TargetCount::Form::Whole : TargetCount::Form::Bound;
    out.how = std::string(exact ? "" : "not exact: ") + "every iteration of " + name(ix, P) + " before " +
              iteration_back(ix, c[js], dj - 1) + " (distance with *): " + out.count.to_string();
    return out;
  }

  // h: P-iterations per S-iteration, when constant (1 for P = S).
  std::vector<LoopId> below_S;  // S (exclusive) down to P (inclusive)
  for (auto l : ix.path(P))
    if (l != S && ix.encloses(S, l)) below_S.push_back(l);
  const auto h = product(ix, below_S);
  // Whether the consumer's engine has started the current S-iteration's P-iterations when c
  // issues (P's statement before c's in S's body), or none of them (after it, or the other
  // branch of one cond: docs/analysis.md).
  bool forward = false;
  if (P != S && !d.exclusive_branches)
    forward = facts.counts.stmt_in(ix, P, S) < facts.counts.instr_stmt_in(ix, d.consumer, S);

  // Loops below c_j*: L_1 .. L_n = S.
  const std::vector<LoopId> inner(c.begin() + static_cast<std::ptrdiff_t>(js) + 1, c.end());
  const auto n = inner.size();
  const std::uint64_t dj = d.distance[js];
  const auto all_inner = product(ix, inner);
  if (h && all_inner) {
    // Flat: every c_j*-iteration runs W_0 S-iterations, each with h P-iterations. The target's
    // S-iteration is D S-iterations before the consumer's (D counted along the flattened loop
    // nest), so Q = P-iterations started before S-iteration (current - D + 1).
    std::uint64_t D = dj * *all_inner, w = *all_inner;
    for (std::size_t i = 0; i < n; ++i) {
      w /= std::max<std::uint64_t>(1, *constant_iterations(ix.loops[inner[i]]));
      D += d.distance[js + 1 + i] * w;
    }
    out.form = TargetCount::Form::Flat;
    // Started before the current S-iteration: r_P - h (forward) or r_P (none yet); P = S counts
    // the current entry too, hence r_S - D.
    const std::uint64_t back = P == S || forward ? *h * D : *h * (D - 1);
    out.count = sub(regs.r(P), num(back));
    out.how = "constant trips below " + name(ix, c[js]) + ": flattened distance " + std::to_string(D) +
              " iterations of " + name(ix, S) + ", " + std::to_string(*h) + " of " + name(ix, P) +
              " each: " + out.count.to_string();
    return out;
  }
  if (n == 0) {
    // Ring: δ only at S. Q = P-iterations started before S-iteration v - k + 1, which is r_P
    // recorded at that iteration's start: the k-th snapshot (the first is r_P itself when the
    // current S-iteration has run none of P yet).
    out.form = TargetCount::Form::Ring;
    out.count = (dj == 1 && !forward) ? regs.r(P) : regs.snapshot(S, P, static_cast<std::uint32_t>(dj));
    out.how = rp + " at the start of " + iteration_back(ix, S, dj - 1) + ": " + out.count.to_string() + " (a ring of " +
              std::to_string(dj) + " on " + name(ix, S) + ")";
    return out;
  }
  // The target lies in iteration α = v_j* - δ_j* of c_j*. Snapshots of r_P at c_j*'s iteration
  // starts give α's first P-count (the (δ_j* + 1)-th) and α + 1's (the δ_j*-th).
  const auto at_alpha = regs.snapshot(c[js], P, static_cast<std::uint32_t>(dj + 1));
  const auto after_alpha = regs.snapshot(c[js], P, static_cast<std::uint32_t>(dj));
  const std::vector<LoopId> tail(inner.begin() + 1, inner.end());
  const auto w1 = product(ix, tail);
  if (h && w1) {
    // Window: inside α, L_1 may run any number of iterations, the loops below it run constant
    // trips, so the S-iterations of α up to t are lin = Σ (τ_i - 1)·W_i + 1 (τ_i = rh_Li - δ_i)
    // unless L_1 ran fewer than τ_1 iterations in α, when all of α counts: the min.
    model::Expr lin = num(0);
    std::uint64_t w = *w1, C = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) w /= std::max<std::uint64_t>(1, *constant_iterations(ix.loops[inner[i]]));
      lin = add(lin, mul(num(w), regs.rh(inner[i])));
      C += w * (d.distance[js + 1 + i] + 1);
    }
    C -= 1;  // W_n = 1 and δ_n + 1 >= 1, so C >= 0
    const auto x = sub(add(at_alpha, mul(num(*h), lin)), num(*h * C));
    out.form = TargetCount::Form::Window;
    out.count = sub(after_alpha, sub(after_alpha, x));  // min(x, y) = y - (y - x) on naturals
    const std::string per =
        P == S ? "" : ", " + std::to_string(*h) + " iterations of " + name(ix, P) + " per iteration of " + name(ix, S);
    out.how = "snapshots of " + rp + " at " + name(ix, c[js]) + "'s iterations" + per + ": min(" + x.to_string() +
              ", " + after_alpha.to_string() + ")";
    return out;
  }
  // Bound: every P-iteration of α (and before), at least what the target needs and all of it
  // in e's past, so the wait is safe and cannot deadlock a spec that does not.
  out.form = TargetCount::Form::Bound;
  out.count = after_alpha;
  out.how = "not exact: trips below " + name(ix, c[js]) + " vary, waits for all of iteration v - " +
            std::to_string(dj) + " of " + name(ix, c[js]) + ": " + after_alpha.to_string();
  return out;
}

}  // namespace syncbisim::allocator
