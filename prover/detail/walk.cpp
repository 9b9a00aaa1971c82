// The consumer engine's walk (docs/prover.md "The consumer engine's walk (`walk.cpp`)"): the
// current iteration j_l of every loop around c; N(l, A), the entries of loop l during the current
// iteration of a loop A around c (E_l = N(l, @top)); W(l, D, i), the entries of l during
// iteration j_D - i of D's current trip (i = 0: the whole current iteration, finished or not).
// Every constraint in `facts_` holds in every reachable state; the ones in `family_` pick out the
// histories where every loop runs one constant trip count, which a directed run can rebuild.
#include <algorithm>

#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

namespace {

// What a rule allows a trip; `first`: only the first trip (a loop directly in @top runs one).
TripBounds choice_bounds(const model::Choice& c, bool first = false) {
  if (const auto* k = std::get_if<model::ConstTrip>(&c)) return {k->n, k->n, true};
  if (const auto* r = std::get_if<model::RangeTrip>(&c)) return {r->min, r->max, true};
  const auto& v = std::get<model::SeqTrip>(c).values;
  if (first) return {v[0], v[0], true};
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi, *lo == *hi};
}

// A branch loop's trip from the cond's rule over branches (0 = then, 1 = else).
TripBounds branch_trip(model::LoopKind kind, const TripBounds& b) {
  if (kind == model::LoopKind::CondThen)
    return {1 - std::min<std::uint64_t>(b.hi, 1), 1 - std::min<std::uint64_t>(b.lo, 1), b.fixable};
  return {std::min<std::uint64_t>(b.lo, 1), std::min<std::uint64_t>(b.hi, 1), b.fixable};
}

// Products of trip bounds, kept far from overflow (a bound that large constrains nothing).
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t kMax = std::uint64_t{1} << 62;
  if (a == 0 || b == 0) return 0;
  return a > kMax / b ? kMax : a * b;
}

}  // namespace

Encoder::Encoder(smt::Context& ctx, const Places& impl, const model::ProgramIndex& spec_ix,
                 const analysis::DependencyAnalysis& analysis, model::InstrId consumer, const ProgramTables& tables)
    : ctx_(ctx),
      places_(impl),
      tables_(tables),
      spec_ix_(spec_ix),
      consumer_(consumer),
      engine_(impl.instr(consumer).engine),
      point_(impl.instr(consumer).at),
      path_(impl.index().path(impl.instr(consumer).at.loop)),
      analysis_(analysis),
      regs_(tables_.regs[impl.instr(consumer).engine]) {
  if (const auto it = tables_.deps_of.find(impl.index().instrs[consumer].name); it != tables_.deps_of.end())
    dep_infos_ = it->second;
  init_control();
}

Encoder::Encoder(smt::Context& ctx, const Places& impl, const model::ProgramIndex& spec_ix,
                 const analysis::DependencyAnalysis& analysis, model::EngineId engine, const Place& at,
                 const ProgramTables& tables)
    : ctx_(ctx),
      places_(impl),
      tables_(tables),
      spec_ix_(spec_ix),
      consumer_(static_cast<model::InstrId>(-1)),
      engine_(engine),
      point_(at),
      path_(impl.index().path(at.loop)),
      analysis_(analysis),
      regs_(tables_.regs[engine]) {
  init_control();
  for (const auto l : path_)
    if (l != model::kTop) j(l);  // the model names the iteration of every loop around the point
}

void Encoder::init_control() {
  // Built once per program (ProgramTables::build, runs.cpp).
  divergent_ = tables_.divergent;
  barriers_shared_ = tables_.barriers_shared;
}

void Encoder::encode() {
  for (const auto l : path_)
    if (l != model::kTop) j(l);  // the instance a directed run drives to names every one
  // The producers of c's dependencies are named by the spec side and the landmarks: a run of
  // signals folded into one term (runs.cpp) never holds one.
  for (const auto* d : dep_infos_)
    if (const auto p = places_.index().instr(spec_ix_.instrs[d->producer].name)) named_.push_back(*p);
  encode_impl();
  encode_spec();
  add_frontier_facts();
}

bool Encoder::on_path(model::LoopId l) const { return std::find(path_.begin(), path_.end(), l) != path_.end(); }

model::LoopId Encoder::junction(model::LoopId l) const {
  while (!on_path(l)) l = places_.parent(l);
  return l;
}

model::LoopId Encoder::path_child(model::LoopId a) const {
  const auto it = std::find(path_.begin(), path_.end(), a);
  return *(it + 1);
}

smt::Term Encoder::nat(const std::string& name) {
  auto v = ctx_.var(name);
  facts_.push_back(v >= 0);
  return v;
}

bool Encoder::single_run(model::LoopId l) const {
  // l's statement runs at most once when every loop above it runs at most one iteration in all
  // (a branch of a cond, a loop of one iteration, up to @top): its only trip is its rule's first.
  for (auto a = places_.parent(l); a != model::kTop; a = places_.parent(a)) {
    const auto& info = places_.index().loops[a];
    if (info.kind != model::LoopKind::Loop) continue;
    if (bounds_on_engine(a).hi > 1) return false;
  }
  return true;
}

TripBounds Encoder::bounds_on_engine(model::LoopId l) const {
  const auto& info = places_.index().loops[l];
  if (info.kind == model::LoopKind::Top) return {1, 1, true};
  const auto sl = spec_ix_.loop(info.name);
  const bool first = single_run(l);
  if (info.kind != model::LoopKind::Loop) {
    if (!sl || !spec_ix_.loops[*sl].trip) return {0, 1, true};  // taken: any
    return branch_trip(info.kind,
                       choice_bounds(spec_ix_.loops[*sl].trip->for_engine(places_.index().engines[engine_]), first));
  }
  if (!sl || !spec_ix_.loops[*sl].trip) throw Outside{"loop " + info.name + " has no trip rule"};
  return choice_bounds(spec_ix_.loops[*sl].trip->for_engine(places_.index().engines[engine_]), first);
}

TripBounds Encoder::replay_bounds(model::LoopId l) const {
  const auto& info = places_.index().loops[l];
  if (info.kind == model::LoopKind::Top) return {1, 1, true};
  const auto sl = spec_ix_.loop(info.name);
  if (!sl || !spec_ix_.loops[*sl].trip) return {0, 1, false};
  const auto& rule = *spec_ix_.loops[*sl].trip;
  const bool first = single_run(l);
  TripBounds b = choice_bounds(rule.uniform, first);
  if (rule.divergent) {
    // One constant for every engine: it must be a value each engine's rule allows.
    for (const auto& e : spec_ix_.engines) {
      const auto c = choice_bounds(rule.for_engine(e), first);
      b = {std::max(b.lo, c.lo), std::min(b.hi, c.hi), b.fixable && c.fixable};
    }
    if (b.lo > b.hi) {
      b = choice_bounds(rule.for_engine(places_.index().engines[engine_]), first);
      b.fixable = false;
    }
  }
  if (info.kind != model::LoopKind::Loop) return branch_trip(info.kind, b);
  return b;
}

smt::Term Encoder::T(model::LoopId l) {
  if (l == model::kTop) return ctx_.nat(1);
  if (auto it = T_.find(l); it != T_.end()) return it->second;
  auto v = ctx_.var("T_" + places_.index().loops[l].name);
  T_.emplace(l, v);
  return v;
}

std::vector<smt::Term> Encoder::family(std::uint64_t cap) {
  auto out = family_;
  const auto& loops = places_.index().loops;
  for (model::LoopId l = 1; l < loops.size(); ++l) {
    const auto b = replay_bounds(l);
    const auto hi = std::max(b.lo, std::min(b.hi, cap));
    out.push_back(T(l) >= b.lo);
    out.push_back(T(l) <= hi);
    if (loops[l].kind == model::LoopKind::CondThen)
      out.push_back(T(l) + T(*places_.index().loop(model::else_loop(loops[l].cond))) == 1);
  }
  return out;
}

smt::Term Encoder::some_trip_above(std::uint64_t n) {
  std::vector<smt::Term> any;
  const auto& loops = places_.index().loops;
  for (model::LoopId l = 1; l < loops.size(); ++l)
    if (loops[l].kind == model::LoopKind::Loop) any.push_back(T(l) > n);
  return ctx_.any(any);
}

smt::Term Encoder::other_than(const ModelReading& m) {
  std::vector<smt::Term> any;
  for (const auto& [l, t] : m.trips)
    if (auto it = T_.find(l); it != T_.end()) any.push_back(it->second != ctx_.nat(t));
  for (const auto& [l, i] : m.iteration)
    if (auto it = j_.find(l); it != j_.end()) any.push_back(it->second != ctx_.nat(i));
  return ctx_.any(any);
}

ModelReading Encoder::read(const smt::Model& m) const {
  ModelReading out;
  for (const auto& [l, t] : T_) out.trips[l] = m.value(t);
  for (const auto& [l, v] : j_) out.iteration[l] = m.value(v);
  for (const auto& [i, r] : R_) out.retired[i] = m.value(r);
  for (std::size_t d = 0; d < deps_.size(); ++d)
    if (!m.holds(deps_[d].satisfied)) out.unsatisfied.push_back(d);
  return out;
}

smt::Term Encoder::j(model::LoopId l) {
  if (l == model::kTop) return ctx_.nat(1);
  if (auto it = j_.find(l); it != j_.end()) return it->second;
  auto v = nat("j_" + places_.index().loops[l].name);
  // The current iteration of the current trip: started, and within what the rule allows.
  facts_.push_back(v >= 1);
  facts_.push_back(v <= bounds_on_engine(l).hi);
  j_.emplace(l, v);
  if (l != model::kTop && places_.parent(l) != model::kTop)
    if (const auto t = seq_trip(l, E(places_.parent(l)) - 1)) facts_.push_back(v <= *t);
  if (replay_bounds(l).fixable) family_.push_back(v <= T(l));
  return v;
}

std::optional<smt::Term> Encoder::seq_trip(model::LoopId l, const smt::Term& index) {
  // A rule whose k-th trip runs values[k] (the last repeating): the trip of the statement's k-th
  // run, k counted on the consumer's engine (docs/semantics.md: indexed loops count their trips).
  const auto& info = places_.index().loops[l];
  const auto sl = spec_ix_.loop(info.name);
  if (info.kind == model::LoopKind::Top || !sl || !spec_ix_.loops[*sl].trip) return std::nullopt;
  const auto* seq =
      std::get_if<model::SeqTrip>(&spec_ix_.loops[*sl].trip->for_engine(places_.index().engines[engine_]));
  if (!seq || seq->values.size() < 2) return std::nullopt;
  auto trip = [&](std::uint32_t v) -> std::uint64_t {
    if (info.kind == model::LoopKind::CondThen) return v == 0 ? 1 : 0;
    if (info.kind == model::LoopKind::CondElse) return v == 0 ? 0 : 1;
    return v;
  };
  const auto& vs = seq->values;
  smt::Term out = ctx_.nat(trip(vs.back()));
  for (std::size_t k = vs.size() - 1; k-- > 0;) out = ite(index == k, ctx_.nat(trip(vs[k])), out);
  return out;
}

bool Encoder::fixable_chain(model::LoopId l, model::LoopId a) const {
  for (; l != a; l = places_.parent(l))
    if (!replay_bounds(l).fixable) return false;
  return true;
}

smt::Term Encoder::full(model::LoopId l, model::LoopId a) {
  smt::Term p = ctx_.nat(1);
  for (; l != a; l = places_.parent(l)) p = p * T(l);
  return p;
}

smt::Term Encoder::guard_of(const Point& q) { return q.back == 0 ? ctx_.truth(true) : j(q.anchor) > q.back; }

smt::Term Encoder::N(model::LoopId l, model::LoopId a) {
  if (l == a) return ctx_.nat(1);
  if (auto it = N_.find({l, a}); it != N_.end()) return it->second;
  const auto& name = places_.index().loops[l].name;
  const auto& aname = places_.index().loops[a].name;
  std::optional<smt::Term> v;
  if (on_path(l)) {
    if (a == places_.parent(l)) {
      v = j(l);
    } else {
      // The current iteration of path_child(a) lies inside the current iteration of a; before
      // the current iteration of l's parent, each earlier one held one trip of l.
      v = nat("N_" + name + "_" + aname);
      facts_.push_back(*v >= N(l, path_child(a)));
      const auto b = bounds_on_engine(l);
      const auto earlier = N(places_.parent(l), a) - 1;
      facts_.push_back(*v >= b.lo * earlier + j(l));
      facts_.push_back(*v <= b.hi * earlier + j(l));
      if (fixable_chain(l, places_.parent(l))) family_.push_back(*v == (N(places_.parent(l), a) - 1) * T(l) + j(l));
    }
  } else {
    const auto J = junction(l);
    if (a == J) {
      if (places_.stmt_in(J, l) < places_.stmt_in(J, point_)) {
        // l's statement precedes c's in J's body: its subtree ran to completion in this
        // iteration of J, how many times is unknown (within the rule when l is directly in J).
        v = nat("N_" + name + "_" + aname);
        if (places_.parent(l) == J) {
          const auto b = bounds_on_engine(l);
          facts_.push_back(*v >= b.lo);
          facts_.push_back(*v <= b.hi);
          if (J != model::kTop)
            if (const auto t = seq_trip(l, E(J) - 1)) facts_.push_back(*v == *t);
        } else {
          // One trip of l per iteration of its parent.
          const auto b = bounds_on_engine(l);
          const auto up = N(places_.parent(l), J);
          facts_.push_back(*v >= b.lo * up);
          facts_.push_back(*v <= b.hi * up);
        }
        if (fixable_chain(l, J)) family_.push_back(*v == full(l, J));
      } else {
        // After c in J's body (not reached yet in this iteration), or the other branch of the
        // cond c sits in (never both in one iteration).
        v = ctx_.nat(0);
      }
    } else {
      // The current iteration of J holds N(l, J) of them; each earlier iteration of J in the
      // current iteration of a held one whole run of l's statement.
      v = nat("N_" + name + "_" + aname);
      facts_.push_back(*v >= N(l, path_child(a)));
      std::uint64_t lo = 1, hi = 1;
      for (auto x = l; x != J; x = places_.parent(x)) {
        const auto b = bounds_on_engine(x);
        lo = saturating_mul(lo, b.lo);
        hi = saturating_mul(hi, b.hi);
      }
      const auto earlier = N(J, a) - 1;
      facts_.push_back(*v >= lo * earlier + N(l, J));
      facts_.push_back(*v <= hi * earlier + N(l, J));
      if (fixable_chain(l, J)) family_.push_back(*v == (N(J, a) - 1) * full(l, J) + N(l, J));
    }
  }
  N_.emplace(std::make_pair(l, a), *v);
  // A cond's branch loops: one of the two runs once per iteration of the cond's parent, so
  // where both are complete (the cond's statement precedes c's) their counts add up to one trip.
  const auto& info = places_.index().loops[l];
  if (info.kind == model::LoopKind::CondThen && !on_path(l) && a == junction(l) &&
      places_.stmt_in(a, l) < places_.stmt_in(a, point_)) {
    const auto up = places_.parent(l) == a ? ctx_.nat(1) : N(places_.parent(l), a);
    facts_.push_back(*v + N(*places_.index().loop(model::else_loop(info.cond)), a) == up);
  }
  return *v;
}

smt::Term Encoder::W(model::LoopId l, model::LoopId d, std::uint32_t i) {
  const auto key = std::make_tuple(l, d, i);
  if (auto it = W_.find(key); it != W_.end()) return it->second;
  const auto& ix = places_.index();
  auto v = nat("W_" + ix.loops[l].name + "_" + ix.loops[d].name + "_" + std::to_string(i));
  W_.emplace(key, v);
  // Iteration j_d - i exists only when j_d > i; the facts about it are conditional.
  const auto exists = i == 0 ? ctx_.truth(true) : j(d) > i;
  const auto b = bounds_on_engine(l);
  const auto up = places_.parent(l) == d ? ctx_.nat(1) : W(places_.parent(l), d, i);
  // One trip of l per iteration of its parent, within l's rule.
  facts_.push_back(implies(exists, v >= b.lo * up && v <= b.hi * up));
  if (places_.parent(l) == d && d != model::kTop)
    if (const auto t = seq_trip(l, E(d) - 1 - i)) facts_.push_back(implies(exists, v == *t));
  if (ix.loops[l].kind == model::LoopKind::CondThen)
    facts_.push_back(implies(exists, v + W(*ix.loop(model::else_loop(ix.loops[l].cond)), d, i) == up));
  if (i == 0) {
    // The whole current iteration holds what ran of it so far; all of it when l's statement
    // precedes c's in d's body.
    const auto so_far = N(l, d);
    if (places_.stmt_in(d, l) < consumer_stmt_in(d)) facts_.push_back(v == so_far);
    else facts_.push_back(v >= so_far);
  }
  if (fixable_chain(l, d)) family_.push_back(v == full(l, d));
  return v;
}

smt::Term Encoder::R(model::InstrId i) {
  if (auto it = R_.find(i); it != R_.end()) return it->second;
  auto v = nat("R_" + places_.index().instrs[i].name);
  R_.emplace(i, v);
  return v;
}

}  // namespace syncbisim::prover::detail
