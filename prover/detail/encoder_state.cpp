// The consumer engine's loop state (docs/prover.md "State variables"): the current iteration
// j_l of every loop around c, and N(l, A), the entries of loop l during the current iteration
// of a loop A around c. Every constraint in `general` holds in every reachable state; the ones
// in `family` pick out the histories where every loop runs one constant trip count, which a
// replay can rebuild.
#include <algorithm>

#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

namespace {

TripBounds choice_bounds(const model::Choice& c) {
  if (const auto* k = std::get_if<model::ConstTrip>(&c)) return {k->n, k->n, true};
  if (const auto* r = std::get_if<model::RangeTrip>(&c)) return {r->min, r->max, true};
  const auto& v = std::get<model::SeqTrip>(c).values;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi, *lo == *hi};
}

}  // namespace

Encoder::Encoder(z3::context& c, const Places& impl, const model::ProgramIndex& six, model::InstrId consumer_id)
    : ctx(c), places(impl), spec_ix(six), consumer(consumer_id) {
  engine = places.instr(consumer).engine;
  point = places.instr(consumer).at;
  path = places.index().path(point.loop);
  counters_ = scan_counters(places, engine);
}

bool Encoder::on_path(model::LoopId l) const { return std::find(path.begin(), path.end(), l) != path.end(); }

model::LoopId Encoder::junction(model::LoopId l) const {
  while (!on_path(l)) l = places.parent(l);
  return l;
}

model::LoopId Encoder::path_child(model::LoopId a) const {
  const auto it = std::find(path.begin(), path.end(), a);
  return *(it + 1);
}

z3::expr Encoder::nat(const std::string& name) {
  auto v = ctx.int_const((name + "#" + std::to_string(fresh_++)).c_str());
  general.push_back(v >= 0);
  return v;
}

TripBounds Encoder::bounds_on_engine(model::LoopId l) const {
  const auto& info = places.index().loops[l];
  if (info.kind == model::LoopKind::Top) return {1, 1, true};
  if (info.kind != model::LoopKind::Loop) return {0, 1, true};
  const auto sl = spec_ix.loop(info.name);
  if (!sl || !spec_ix.loops[*sl].trip) throw Outside{"loop " + info.name + " has no trip rule"};
  return choice_bounds(spec_ix.loops[*sl].trip->for_engine(places.index().engines[engine]));
}

TripBounds Encoder::replay_bounds(model::LoopId l) const {
  const auto& info = places.index().loops[l];
  if (info.kind == model::LoopKind::Top) return {1, 1, true};
  const auto sl = spec_ix.loop(info.name);
  if (!sl || !spec_ix.loops[*sl].trip) return {0, 1, false};
  const auto& rule = *spec_ix.loops[*sl].trip;
  TripBounds b = choice_bounds(rule.uniform);
  if (rule.divergent) {
    // One constant for every engine: it must be a value each engine's rule allows.
    for (const auto& e : spec_ix.engines) {
      const auto c = choice_bounds(rule.for_engine(e));
      b = {std::max(b.lo, c.lo), std::min(b.hi, c.hi), b.fixable && c.fixable};
    }
    if (b.lo > b.hi) b = {bounds_on_engine(l).lo, bounds_on_engine(l).hi, false};
  }
  if (info.kind == model::LoopKind::CondThen)
    return {1 - std::min<std::uint64_t>(b.hi, 1), 1 - std::min<std::uint64_t>(b.lo, 1), b.fixable};
  if (info.kind == model::LoopKind::CondElse)
    return {std::min<std::uint64_t>(b.lo, 1), std::min<std::uint64_t>(b.hi, 1), b.fixable};
  return b;
}

z3::expr Encoder::T(model::LoopId l) {
  if (l == model::kTop) return ctx.int_val(1);
  if (auto it = T_.find(l); it != T_.end()) return it->second;
  auto v = ctx.int_const(("T_" + places.index().loops[l].name).c_str());
  T_.emplace(l, v);
  return v;
}

std::vector<z3::expr> Encoder::family_trips(std::uint64_t cap) {
  std::vector<z3::expr> out;
  const auto& loops = places.index().loops;
  for (model::LoopId l = 1; l < loops.size(); ++l) {
    const auto b = replay_bounds(l);
    const auto hi = std::max(b.lo, std::min(b.hi, cap));
    out.push_back(T(l) >= ctx.int_val(static_cast<std::uint64_t>(b.lo)));
    out.push_back(T(l) <= ctx.int_val(static_cast<std::uint64_t>(hi)));
    if (loops[l].kind == model::LoopKind::CondThen)
      out.push_back(T(l) + T(*places.index().loop(model::else_loop(loops[l].cond))) == 1);
  }
  return out;
}

z3::expr Encoder::j(model::LoopId l) {
  if (l == model::kTop) return ctx.int_val(1);
  if (auto it = j_.find(l); it != j_.end()) return it->second;
  auto v = nat("j_" + places.index().loops[l].name);
  // The current iteration of the current trip: started, and within what the rule allows.
  general.push_back(v >= 1);
  general.push_back(v <= ctx.int_val(static_cast<std::uint64_t>(bounds_on_engine(l).hi)));
  family.push_back(v <= T(l));
  j_.emplace(l, v);
  return v;
}

z3::expr Encoder::full(model::LoopId l, model::LoopId a) {
  z3::expr p = ctx.int_val(1);
  for (; l != a; l = places.parent(l)) p = p * T(l);
  return p;
}

z3::expr Encoder::N(model::LoopId l, model::LoopId a) {
  if (l == a) return ctx.int_val(1);
  if (auto it = N_.find({l, a}); it != N_.end()) return it->second;
  const auto& name = places.index().loops[l].name;
  const auto& aname = places.index().loops[a].name;
  std::optional<z3::expr> v;
  if (on_path(l)) {
    if (a == places.parent(l)) {
      v = j(l);
    } else {
      // The current iteration of path_child(a) lies inside the current iteration of a.
      v = nat("N_" + name + "_" + aname);
      general.push_back(*v >= N(l, path_child(a)));
      family.push_back(*v == (N(places.parent(l), a) - 1) * T(l) + j(l));
    }
  } else {
    const auto J = junction(l);
    if (a == J) {
      if (places.stmt_in(J, l) < places.stmt_in(J, point)) {
        // l's statement precedes c's in J's body: its subtree ran to completion in this
        // iteration of J, how many times is unknown (within the rule when l is directly in J).
        v = nat("N_" + name + "_" + aname);
        if (places.parent(l) == J) {
          const auto b = bounds_on_engine(l);
          general.push_back(*v >= ctx.int_val(static_cast<std::uint64_t>(b.lo)));
          general.push_back(*v <= ctx.int_val(static_cast<std::uint64_t>(b.hi)));
        }
        family.push_back(*v == full(l, J));
      } else {
        // After c in J's body (not reached yet in this iteration), or the other branch of the
        // cond c sits in (never both in one iteration).
        v = ctx.int_val(0);
      }
    } else {
      v = nat("N_" + name + "_" + aname);
      general.push_back(*v >= N(l, path_child(a)));
      family.push_back(*v == (N(J, a) - 1) * full(l, J) + N(l, J));
    }
  }
  N_.emplace(std::make_pair(l, a), *v);
  return *v;
}

z3::expr Encoder::R(model::InstrId i) {
  if (auto it = R_.find(i); it != R_.end()) return it->second;
  auto v = nat("R_" + places.index().instrs[i].name);
  R_.emplace(i, v);
  return v;
}

void Encoder::add_retirement_order() {
  // Instances of I and J directly in one loop body on one engine issue alternately (I J I J
  // ...) and retire in issue order (docs/semantics.md §3), so R(J) <= R(I) <= R(J) + 1 when I comes
  // first. Nothing else relates retirements: another engine may be ahead or behind.
  for (const auto& [a, ra] : R_)
    for (const auto& [b, rb] : R_) {
      const auto& pa = places.instr(a);
      const auto& pb = places.instr(b);
      if (a == b || pa.engine != pb.engine || pa.at.loop != pb.at.loop) continue;
      if (places.order_in(pa.at.loop, pa.at, pb.at) != Order::Before) continue;
      general.push_back(rb <= ra);
      general.push_back(ra <= rb + 1);
    }
}

}  // namespace syncbisim::prover::detail
