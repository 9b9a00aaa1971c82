// paper §6.1: one semaphore per engine, counting all its retirements, decoded at the consumer.
//
// The decode (docs/allocator.md derives it at length). Let E be the producer's engine and t the
// producer instance the consumer needs (the expr-th instance of p, expr from paper §5.2). Since
// E retires in issue order and issues in walk order, s_E >= X holds exactly when that instance
// has retired, where X = the number of E's counted instructions in E's walk up to and including
// t. Under uniform control every engine walks the same iterations, so X can be computed from the
// CONSUMER's registers. Every counted instruction of E sits directly in the body of one loop ℓ
// (N_ℓ of them per iteration), so
//
//   X = Σ_ℓ N_ℓ · started_ℓ(t)  −  Σ_{L on path(P)} N_L  +  Σ_{L on path(P)} B_L
//
// where started_ℓ(t) counts the iterations of ℓ started up to t (an iteration of a loop off the
// path to t that has started is complete; on the path the current one is partial, hence −N_L),
// and B_L is E's instructions directly in L before the statement leading down to t (B_P = K).
// started_ℓ(t) in consumer registers (s = the consumer's iteration of S, a = s − k_eff the
// target's; same trip of S thanks to the mask):
//   ℓ outside S's subtree (ancestors of S included): r_ℓ       (no iteration of ℓ starts in a trip of S)
//   ℓ = S:                                           r_S − k_eff
//   ℓ = P below S:                                   r_P        (paper §5.2: all of P through t)
//   ℓ strictly inside S, ℓ ≠ P: r_ℓ − (iterations of ℓ in (t, v]), which registers give only as
//       rh_ℓ, the iterations of ℓ's trip in the current iteration of S, when ℓ's parent is S.
// Anything else (a loop run between v and a future t, iterations in older S iterations, loops
// inside P, a nested P that may run 0 times in an iteration, exclusive branches, divergent
// control) cannot be decoded: that producer's (loop, engine) pair is given its own per-loop
// semaphore, excluded from s_E's count, and the dependency is allocated per-loop.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "allocator/expr_build.h"
#include "allocator/strategies.h"
#include "allocator/wait_value.h"

namespace syncbisim::allocator {

namespace {

using model::LoopId;

// The smallest trip the loop's rule allows (uniform rule): 0 for a cond branch.
std::uint32_t min_trip(const model::LoopInfo& l) {
  if (l.kind != model::LoopKind::Loop || !l.trip) return 0;
  return model::choice_min(l.trip->uniform);
}

}  // namespace

// counted[i]: whether instruction i signals its engine's semaphore (only E's matter).
CountedInstrs::CountedInstrs(const SpecFacts& facts, const std::vector<bool>& counted, bool segmented)
    : facts_(&facts),
      counted_(counted),
      stmts_(facts.ix.engines.size(), std::vector<std::vector<std::uint32_t>>(facts.ix.loops.size())),
      ranks_(stmts_),
      segmented_(segmented) {
  const auto& ix = facts.ix;
  for (const auto& l : ix.loops) divergent_ = divergent_ || (l.trip && l.trip->divergent);
  if (segmented_) {
    // A loop's segment is its top-level ancestor's statement in @top (parents come before their
    // children in the index).
    std::vector<std::uint32_t> loop_segment(ix.loops.size(), 0);
    segment_loops_.assign(facts.spec.body.size(), {model::kTop});
    for (LoopId l = 0; l < ix.loops.size(); ++l) {
      if (l == model::kTop) continue;
      const auto parent = ix.loops[l].parent;
      loop_segment[l] = parent == model::kTop ? facts.counts.loops[l].stmt : loop_segment[parent];
      segment_loops_[loop_segment[l]].push_back(l);
    }
    instr_segment_.resize(ix.instrs.size());
    for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
      const auto parent = ix.instrs[i].parent;
      instr_segment_[i] = parent == model::kTop ? facts.counts.stmt[i] : loop_segment[parent];
    }
  } else {
    for (LoopId l = 0; l < ix.loops.size(); ++l) all_loops_.push_back(l);
  }
  for (model::InstrId i = 0; i < facts.ix.instrs.size(); ++i) {
    if (!counted[i]) continue;
    const auto& in = facts.ix.instrs[i];
    stmts_[in.engine][in.parent].push_back(facts.counts.stmt[i]);
    ranks_[in.engine][in.parent].push_back(facts.counts.k[i]);
  }
  for (auto* table : {&stmts_, &ranks_})
    for (auto& by_loop : *table)
      for (auto& v : by_loop) std::sort(v.begin(), v.end());
}

void CountedInstrs::uncount(model::EngineId e, model::LoopId l) {
  // stmts_[e][l] and ranks_[e][l] hold exactly the counted ones of engine e directly in l.
  stmts_[e][l].clear();
  ranks_[e][l].clear();
  for (const auto i : facts_->direct[l])
    if (facts_->ix.instrs[i].engine == e) counted_[i] = false;
}

std::uint64_t CountedInstrs::before_stmt(model::EngineId e, model::LoopId l, std::uint32_t stmt) const {
  const auto& v = stmts_[e][l];
  return static_cast<std::uint64_t>(std::lower_bound(v.begin(), v.end(), stmt) - v.begin());
}

std::uint64_t CountedInstrs::up_to_rank(model::EngineId e, model::LoopId l, std::uint32_t k) const {
  const auto& v = ranks_[e][l];
  return static_cast<std::uint64_t>(std::upper_bound(v.begin(), v.end(), k) - v.begin());
}

EngineDecode decode_engine(const SpecFacts& facts, const Registers& regs, const analysis::DependencyInfo& d,
                           const CountedInstrs& counted) {
  const auto& ix = facts.ix;
  const auto E = d.producer_engine;  // the registers named below are read on the consumer's engine
  const LoopId S = d.S, P = d.P;
  // E's counted instructions directly in a loop: all of them, or before statement `stmt`.
  // Segmented, the semaphore counts only the producer's segment g: of @top's own instructions,
  // those of statement g.
  const auto g = counted.segment_of(d.producer);
  const auto counted_in = [&](LoopId l, std::uint32_t stmt) -> std::uint64_t {
    if (!counted.segmented() || l != model::kTop) return counted.before_stmt(E, l, stmt);
    if (stmt <= g) return 0;
    return counted.before_stmt(E, l, g + 1) - counted.before_stmt(E, l, g);
  };
  if (counted.divergent()) return {std::nullopt, "divergent control: engines may count iterations differently"};
  if (!d.allocatable()) return {std::nullopt, "outside paper §5.2 (the decode needs its shapes)"};
  if (!counted.counted(d.producer)) return {std::nullopt, "the producer's loop is on its own semaphore"};
  std::uint32_t k_eff = d.offset;
  if (d.cls != analysis::DepClass::ProducerInS) {
    if (d.exclusive_branches)
      return {std::nullopt, "exclusive branches: the instance owed is in an older iteration of " + ix.loops[S].name};
    if (ix.loops[P].parent != S)
      return {std::nullopt, "the producer's loop " + ix.loops[P].name + " is not a child of " + ix.loops[S].name};
    if (min_trip(ix.loops[P]) < 1)
      return {std::nullopt,
              "the producer's loop " + ix.loops[P].name + " may run 0 times in an iteration of " + ix.loops[S].name};
    k_eff = d.cls == analysis::DepClass::NestedForward ? 0 : 1;
  }
  const auto n_of = [&](LoopId l) -> std::uint64_t { return counted_in(l, UINT32_MAX); };
  const std::uint32_t pos_t = P == S ? facts.counts.stmt[d.producer] : facts.counts.loops[P].stmt;
  const std::uint32_t pos_c = facts.counts.instr_stmt_in(ix, d.consumer, S);

  std::int64_t constant = 0;
  model::Expr pos = num(0), neg = num(0);
  const auto plus = [&](std::uint64_t n, const model::Expr& r) {
    if (r.is_constant()) constant += static_cast<std::int64_t>(n * r.nodes[0].value);  // r_@top = 1
    else pos = add(pos, mul(num(n), r));
  };
  const auto minus = [&](std::uint64_t n, const model::Expr& r) { neg = add(neg, mul(num(n), r)); };

  for (const LoopId l : counted.loops_of(g)) {
    const auto n = n_of(l);
    if (n == 0) continue;
    const auto& name = ix.loops[l].name;
    if (l == S) {
      plus(n, regs.r(l));
      constant -= static_cast<std::int64_t>(n) * k_eff;
      continue;
    }
    if (!ix.encloses(S, l) || l == P) {  // outside S's subtree, or P itself
      plus(n, regs.r(l));
      continue;
    }
    if (P != S && ix.encloses(P, l))
      return {std::nullopt,
              "loop " + name + " inside the producer's loop " + ix.loops[P].name + " holds counted instructions"};
    const auto m = facts.counts.stmt_in(ix, l, S);
    // @top runs once: a loop after the target in its body has not started at t.
    if (S == model::kTop && m > pos_t) continue;
    plus(n, regs.r(l));  // r_ℓ, corrected below by the iterations of ℓ in (t, v]
    const bool child = ix.loops[l].parent == S;
    // T: ℓ's iterations of iteration a before t (all or none); V: of iteration s before v.
    const bool t_full = m < pos_t;
    const bool v_any = m <= pos_c;  // m == pos_c: the consumer is inside, a partial trip
    if (k_eff >= 2)
      return {std::nullopt,
              "loop " + name + " runs in iterations of " + ix.loops[S].name + " between target and consumer"};
    if (k_eff == 1) {
      if (!t_full)
        return {std::nullopt, "loop " + name + " runs after the target in its iteration of " + ix.loops[S].name};
      if (v_any) {
        if (!child)
          return {std::nullopt, "loop " + name + " is not a child of " + ix.loops[S].name + " (no trip register)"};
        minus(n, regs.rh(l));
      }
      continue;
    }
    // k_eff == 0: started_ℓ(t) = r_ℓ + T − V within the same iteration of S.
    if (t_full && (m < pos_c)) continue;
    if (!t_full && !v_any) continue;
    if (!t_full && v_any) {
      if (!child)
        return {std::nullopt, "loop " + name + " is not a child of " + ix.loops[S].name + " (no trip register)"};
      minus(n, regs.rh(l));
      continue;
    }
    return {std::nullopt, "loop " + name + " runs between the consumer and the producer it waits for"};
  }
  // The path terms: −N_L + B_L for every loop on the path to P (B_P = K).
  const auto path = ix.path(P);
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto L = path[i];
    std::uint64_t b = 0;
    if (L == P) {  // K: the producer's place among the counted instructions directly in P
      b = counted.up_to_rank(E, P, facts.counts.k[d.producer]);
      if (counted.segmented() && P == model::kTop) b -= counted.before_stmt(E, P, g);  // earlier segments
    } else {
      b = counted_in(L, facts.counts.loops[path[i + 1]].stmt);
    }
    constant += static_cast<std::int64_t>(b) - static_cast<std::int64_t>(n_of(L));
  }
  if (constant >= 0) pos = add(pos, num(static_cast<std::uint64_t>(constant)));
  else neg = add(neg, num(static_cast<std::uint64_t>(-constant)));
  return {sub(pos, neg), ""};
}

void allocate_per_engine(const SpecFacts& facts, Draft& draft, LoopSemaphores& sems,
                         const std::vector<std::size_t>& deps, bool segmented) {
  const auto& ix = facts.ix;
  const auto& regs = draft.registers();
  // split[ℓ][E]: (ℓ, E) has its own per-loop semaphore. Splitting only removes terms, so the
  // loop below reaches a fixpoint (at most one pass per pair).
  std::vector<std::vector<bool>> counted(ix.engines.size(), std::vector<bool>(ix.loops.size(), true));
  const auto counted_instrs = [&] {
    std::vector<bool> c(ix.instrs.size());
    for (model::InstrId i = 0; i < ix.instrs.size(); ++i) c[i] = counted[ix.instrs[i].engine][ix.instrs[i].parent];
    return CountedInstrs(facts, c, segmented);
  };
  std::vector<std::string> why(facts.analysis.deps.size());
  for (bool changed = true; changed;) {
    changed = false;
    std::optional<CountedInstrs> index;  // built at the first decode, then kept up to date
    for (auto d : deps) {
      const auto& info = facts.dep(d);
      if (!why[d].empty()) continue;
      if (!info.allocatable() && dep_count(facts, draft.registers(), info).never_binds) {
        why[d] = "never binds";  // no wait, nothing to split
        continue;
      }
      if (!index) index.emplace(counted_instrs());
      const auto r = decode_engine(facts, regs, info, *index);
      if (r.value) continue;
      why[d] = "per-engine decode impossible: " + r.why_not;
      if (counted[info.producer_engine][info.P]) {
        counted[info.producer_engine][info.P] = false;
        changed = true;
        index->uncount(info.producer_engine, info.P);
      }
    }
  }
  const auto index = counted_instrs();
  // engine -> segment -> its semaphore (one segment unless segmented)
  std::vector<std::map<std::uint32_t, std::string>> sem(ix.engines.size());
  const auto segment_name = [&](std::uint32_t g) {
    const auto& st = facts.spec.body[g].node;
    if (const auto* l = std::get_if<model::Loop>(&st)) return l->id;
    if (const auto* c = std::get_if<model::Cond>(&st)) return c->id;
    return "at" + std::to_string(g);
  };
  const auto sem_of = [&](model::InstrId i) -> const std::string& {
    const auto e = ix.instrs[i].engine;
    const auto g = index.segment_of(i);
    auto& name = sem[e][g];
    if (name.empty()) name = draft.semaphore("s_", segmented ? ix.engines[e] + "_" + segment_name(g) : ix.engines[e]);
    return name;
  };
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
    const auto e = ix.instrs[i].engine;
    if (!counted[e][ix.instrs[i].parent]) continue;
    draft.signal(i, sem_of(i));
  }
  std::vector<std::size_t> per_loop;
  for (auto d : deps) {
    const auto& info = facts.dep(d);
    if (!why[d].empty()) {
      per_loop.push_back(d);
      continue;
    }
    const auto r = decode_engine(facts, regs, info, index);
    const auto& s = sem_of(info.producer);
    const auto value = draft.add_wait(info.consumer, s, masked(regs, info, *r.value));
    draft.decide(d, Scheme::PerEngine, s, value, "");
  }
  for (model::EngineId e = 0; e < ix.engines.size(); ++e)
    for (model::LoopId l = 0; l < ix.loops.size(); ++l)
      if (!counted[e][l] && facts.counts.loops[l].n[e] > 0) sems.of(l, e);
  for (auto d : per_loop) allocate_per_loop(facts, draft, sems, {d}, why[d]);
}

}  // namespace syncbisim::allocator
