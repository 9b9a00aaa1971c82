// What the engines' retirement frontiers must satisfy (docs/prover.md "Retirements"). Each engine
// retires its instructions in issue order, which is walk order (docs/semantics.md §3), so its
// retirement counts R(I) are the executions of I before one point of its walk, its frontier.
// Asserted here, for the instructions the two sides read:
// * alternation: I before J directly in one loop body on one engine: R(J) <= R(I) <= R(J) + 1;
// * the consumer's own engine has retired at most what it issued: R(I) <= count(I, c);
// * landmarks (uniform control): for each dependency's owed-th producer instance x, every engine
//   frontier lies before x or after it, so on the producer's engine either every R(I) is at most
//   count(I, before x) or every R(I) is at least count(I, after x) (for S = @top and p deeper in
//   an earlier top-level statement, the point after that statement stands for x);
// * barriers (aligned, uniform control): at the last release before c every engine stood drained
//   at that barrier, and none has passed the next barrier of c's engine, which is not released.
#include <algorithm>
#include <set>

#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

void Encoder::add_frontier_facts() {
  // With barriers, whether the consumer's engine may be held at one depends on every engine
  // (add_barrier_bounds): every instruction's retirements take part.
  if (barriers_shared_ && places_.has_barrier() && places_.barrier_misalignment().empty())
    for (model::InstrId i = 0; i < places_.index().instrs.size(); ++i)
      if (countable(i)) R(i);
  // The producers of what the two sides read take part too (causality below): one level.
  // (In the analysis' order, as found by the tables' index of the dependencies by consumer.)
  auto deps_of_named = [&] {
    std::vector<std::size_t> out;
    for (const auto& [i, r] : R_)
      for (const auto d : tables_.deps_by_consumer[i]) out.push_back(d);
    std::sort(out.begin(), out.end());
    return out;
  };
  {
    std::vector<model::InstrId> more;
    for (const auto d : deps_of_named()) more.push_back(tables_.deps[d].producer);
    for (const auto p : more) R(p);
  }
  // Alternation. For I before J directly in one loop body on one engine, R(J) <= R(I) <=
  // R(J) + 1. Over the instructions of one body in their order I_1 .. I_n this is the chain
  // R(I_{k+1}) <= R(I_k) together with R(I_1) <= R(I_n) + 1: every pair follows from those by
  // transitivity (R(I_a) <= R(I_1) <= R(I_n) + 1 <= R(I_b) + 1), so 2n facts say what n^2 pairs did
  // (docs/prover.md "Complexity").
  {
    std::map<std::pair<model::EngineId, model::LoopId>,
             std::vector<std::pair<std::pair<std::uint32_t, std::uint32_t>, smt::Term>>>
        bodies;
    for (const auto& [i, r] : R_) {
      const auto& pi = places_.instr(i);
      bodies[{pi.engine, pi.at.loop}].push_back({{pi.at.stmt, pi.at.item}, r});
    }
    for (auto& [key, v] : bodies) {
      if (v.size() < 2) continue;
      std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      for (std::size_t k = 0; k + 1 < v.size(); ++k) facts_.push_back(v[k + 1].second <= v[k].second);
      facts_.push_back(v.front().second <= v.back().second + 1);
    }
  }
  // Causality: an instruction that has retired n times has issued n times, each time with the
  // spec's condition true (the lock step issues only then). For a dependency p -> q with both
  // directly in one loop S and offset k at S only, q's n-th instance runs at the n-th entry of S
  // on its engine and needs n - k retirements of p, unless its iteration is among the first k of
  // its trip. With k = 0 there are none such: R(p) >= R(q). With k > 0, when S runs one trip in
  // all (its parent is @top), only its first k iterations: R(p) + k >= R(q).
  for (const auto k : deps_of_named()) {
    const auto& d = tables_.deps[k];
    if (d.causal && R_.count(d.producer)) facts_.push_back(R_.at(d.producer) + d.offset >= R_.at(d.consumer));
  }
  // The consumer's engine has issued exactly what precedes c in its walk.
  const auto c = consumer_point();
  for (const auto& [i, r] : R_)
    if (places_.instr(i).engine == engine_) facts_.push_back(r <= count(i, c));
  for (std::size_t d = 0; d < deps_.size(); ++d) add_landmark(d);
  add_summary_facts();
  if (places_.has_barrier() && places_.barrier_misalignment().empty() && barriers_shared_) add_barrier_bounds();
}

void Encoder::add_landmark(std::size_t dep) {
  const auto& t = deps_[dep];
  if (t.multi_level) return;
  const auto& ix = places_.index();
  const auto& p = places_.instr(t.producer);
  const auto E = p.engine;
  if (!countable(t.producer)) return;
  std::vector<model::InstrId> rel;
  for (const auto& [i, r] : R_)
    if (places_.instr(i).engine == E && countable(i)) rel.push_back(i);
  bool late = false;  // E's signals after the consumer's statement, summed (runs.cpp)
  for (const auto& s : summaries_) late = late || (s.engine == E && s.late);
  if (rel.size() < 2 && !late) return;  // R(p) alone: nothing to relate
  const auto cs = consumer_stmt_in(t.S);
  smt::Term guard = !t.underflow;
  std::vector<smt::Term> before_x;  // count(I, just before x), per rel
  bool x_is_after = false;          // ... or, in the last case, count(I, a point just after x)
  if (t.P == t.S) {
    // x is p's instance in S-iteration j_S - k, at p's place in S's body.
    if (t.k == 0 && (p.at.stmt > cs || (p.at.stmt == cs && E == engine_ && p.at.item > point_.item))) return;
    const Point x{t.S, t.k, p.at.stmt, p.at.item, E};
    for (const auto i : rel) before_x.push_back(count(i, x));
  } else if (places_.parent(t.P) == t.S && p.at.loop == t.P) {
    // x is p's instance in the last iteration of P's trip in S-iteration j_S - k: what ran
    // between it and the point after P's statement is the rest of that last iteration.
    const auto sp = places_.stmt_of(t.P);
    if (t.k == 0 && sp >= cs) return;
    const Point after{t.S, t.k, sp + 1, 0, E};
    guard = guard && (t.k == 0 ? N(t.P, t.S) >= 1 : W(t.P, t.S, t.k) >= 1);
    for (const auto i : rel) {
      const auto& pi = places_.instr(i);
      smt::Term tail = ctx_.nat(0);
      if (pi.at.loop == t.P) {
        if (pi.at.stmt > p.at.stmt || (pi.at.stmt == p.at.stmt && pi.at.item >= p.at.item)) tail = ctx_.nat(1);
      } else if (ix.encloses(t.P, pi.at.loop) && places_.stmt_in(t.P, pi.at) > p.at.stmt) {
        // I sits in a loop M after p in P's body: its executions in P's last iteration.
        auto m = nat("tail_" + ix.instrs[i].name);
        const auto b = bounds_on_engine(pi.at.loop);
        if (places_.parent(pi.at.loop) == t.P) facts_.push_back(implies(guard, m >= b.lo && m <= b.hi));
        if (fixable_chain(pi.at.loop, t.P)) family_.push_back(m == full(pi.at.loop, t.P));
        tail = m;
      }
      before_x.push_back(count(i, after) - tail);
    }
  } else if (t.S == model::kTop && t.k == 0) {
    // S is @top and p lies deeper in an earlier top-level statement T: x is p's last instance in
    // T. The point after T is past x with no instance of p between, and E's frontier lies before
    // it or after it. What this relates are E's instructions of T and of later statements: a
    // semaphore E signals in both (docs/allocator.md "Reusing registers and semaphores") counts
    // only T's signals while the frontier is inside T.
    const auto st = places_.stmt_in(model::kTop, p.at);
    if (st >= cs) return;
    const Point after{t.S, 0, st + 1, 0, E};
    for (const auto i : rel) before_x.push_back(count(i, after));
    x_is_after = true;
    // The disjunction below holds with R(p) at its full count in T on either side, so it does not
    // say that E's earlier statements are drained. This does: once x has retired, everything E
    // issued before it has, and every instance of an instruction of a statement before T comes
    // before x (its count after T is its count at T's start, all of it).
    const auto rp = R(t.producer);
    const auto full_p = count(t.producer, after);
    std::vector<smt::Term> drained;
    for (std::size_t k = 0; k < rel.size(); ++k)
      if (places_.stmt_in(model::kTop, places_.instr(rel[k]).at) < st) drained.push_back(R(rel[k]) >= before_x[k]);
    if (!drained.empty()) facts_.push_back(implies(full_p >= 1 && rp >= full_p, ctx_.all(drained)));
  } else {
    return;
  }
  std::vector<smt::Term> behind, past, nonneg;
  for (std::size_t k = 0; k < rel.size(); ++k) {
    const auto r = R(rel[k]);
    behind.push_back(r <= before_x[k]);
    past.push_back(r >= before_x[k] + (rel[k] == t.producer && !x_is_after ? 1 : 0));
    nonneg.push_back(before_x[k] >= 0);
  }
  // E's signals of statements after the consumer's, summed as one term (runs.cpp): x lies in the
  // consumer's statement or before, so behind it none of them has retired.
  for (const auto& s : summaries_)
    if (s.engine == E && s.late) behind.push_back(*s.late <= 0);
  facts_.push_back(implies(guard, ctx_.all(nonneg) && (ctx_.all(behind) || ctx_.all(past))));
}

void Encoder::add_barrier_bounds() {
  const auto c = consumer_point();
  std::vector<model::InstrId> rel;
  for (const auto& [i, r] : R_)
    if (countable(i)) rel.push_back(i);
  // Lower bounds: every engine drained at the last release. A layout the search does not
  // follow leaves them out (fewer facts, never a wrong one).
  try {
    for (const auto& f : search_back_spots(c, "the last barrier before the consumer", ctx_.truth(true), false)) {
      if (!f.in_frame() && !f.outer->at) continue;
      for (const auto& [i, n] : counts_at(f)) released_.push_back(implies(f.guard, n >= 0 && R(i) >= n));
    }
  } catch (const Outside&) {}
  // Upper bounds: nobody has passed the next barrier of the consumer's engine.
  if (const auto next = next_barrier(c))
    for (const auto i : rel) released_.push_back(R(i) <= count(i, on_engine(*next, places_.instr(i).engine)));
  // Held at a barrier b before c with only loop control and barriers between them (the lock
  // step compares c then: docs/semantics.md): b is not released, so nobody has passed it, and
  // some engine has not arrived, so it has an instruction before b it has not retired (one with
  // none left would have drained and arrived, internal steps running at once); the release
  // before b drained everyone. One case per barrier of that chain, walking back from c to the
  // consumer engine's last instruction.
  std::vector<smt::Term> held_cases;
  auto held_at = [&](const smt::Term& guard, const std::map<model::InstrId, smt::Term>& upto,
                     const std::vector<std::pair<smt::Term, std::map<model::InstrId, smt::Term>>>& lower) {
    std::vector<smt::Term> parts{guard}, lagging, low;
    for (const auto i : rel) {
      parts.push_back(R(i) <= upto.at(i));
      lagging.push_back(R(i) < upto.at(i));
    }
    // An instruction whose counts are not known (another engine's, under a per-engine rule)
    // may be the one not retired; and under a per-engine rule an engine may also stand at a
    // loop head waiting to choose its own trip (under uniform control the consumer's engine,
    // which passed every head before b, made or read every choice there already).
    for (model::InstrId i = 0; i < places_.index().instrs.size(); ++i)
      if (!countable(i)) lagging.push_back(ctx_.truth(true));
    if (divergent_) lagging.push_back(ctx_.truth(true));
    parts.push_back(ctx_.any(lagging));
    for (const auto& [g, n] : lower)
      for (const auto i : rel) low.push_back(implies(g, n.at(i) >= 0 && R(i) >= n.at(i)));
    parts.push_back(ctx_.all(low));
    held_cases.push_back(ctx_.all(parts));
  };
  // The chain, backwards from c: each barrier found is a case (and the search goes on before it,
  // into a loop it ends and through loops that ended, frames.cpp), until the consumer engine's
  // last instruction.
  std::vector<Spot> found;
  try {
    found = search_back_spots(c, "the barriers before the consumer", ctx_.truth(true), /*instrs=*/true);
  } catch (const Outside&) {
    // A layout the walk does not follow: held at some barrier before c, no more known. On
    // another engine the barrier may lie anywhere in c's block: count the whole block.
    std::map<model::InstrId, smt::Term> n;
    for (const auto i : rel) {
      const auto h = places_.instr(i).engine;
      auto upto = Point{c.anchor, c.back, c.stmt, c.item, h};
      if (h != engine_ && c.item > 0) upto = Point{c.anchor, c.back, c.stmt + 1, 0, h};
      n.emplace(i, count(i, upto));
    }
    held_at(ctx_.truth(true), n, {});
  }
  for (int rounds = 0; !found.empty(); ++rounds) {
    const auto f = found.back();
    found.pop_back();
    if (f.opaque) {
      // Held at some barrier inside loop f.ended's last iteration, or before: nobody has passed
      // the point after it, no more known.
      held_at(f.guard, counts_at(f), {});
      continue;
    }
    if (!f.item || f.item->kind == ItemRef::Kind::Instr) continue;  // the chain ends
    if (rounds > 64) {
      // Held at this barrier or some barrier before it: nobody has passed it, no more known.
      held_at(f.guard, counts_at(f), {});
      continue;
    }
    held_at(f.guard, counts_at(f), barrier_before(f));
    try {
      auto more = search_before(f, /*instrs=*/true);
      found.insert(found.end(), more.begin(), more.end());
    } catch (const Outside&) {
      // The chain goes on where the search does not follow: held at some barrier before this
      // one, so nobody has passed this one (and some engine has not reached it).
      held_at(f.guard, counts_at(f), {});
    }
  }
  held_ = ctx_.any(held_cases);  // no case: c is never held (false)
}

}  // namespace syncbisim::prover::detail
