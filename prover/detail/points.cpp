// Points of the consumer engine's walk and what ran before them (docs/prover.md "Points"): the
// entries of a loop and the executions of an item before a point, written in the walk's
// variables; and the searches that find, from a point backwards, the last assignment of a
// register or the last barrier, as cases over the trip counts (a loop that may have run 0 times
// leaves the search going on before it).
#include <stdexcept>

#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

Point Encoder::consumer_point() const { return Point{point_.loop, 0, point_.stmt, point_.item, engine_}; }

std::uint32_t Encoder::consumer_stmt_in(model::LoopId d) const { return places_.stmt_in(d, point_); }

smt::Term Encoder::C(model::LoopId l, const Point& q) {
  const auto d = q.anchor;
  if (l == d) return E(d) - q.back;
  // Loops outside d's subtree have no entries during d's current trip.
  if (!places_.index().encloses(d, l)) return E(l);
  const auto sl = places_.stmt_in(d, l);
  if (q.back == 0) {
    if (sl < q.stmt) {
      // l's statement lies before q in the current iteration of d: all of its entries there
      // are before q. Before c's statement they have all run already; at or after it (q lies
      // ahead of c) the rest of them are still to come.
      if (sl < consumer_stmt_in(d)) return E(l);
      return E(l) - N(l, d) + W(l, d, 0);
    }
    return E(l) - N(l, d);
  }
  // Iteration j_d - back: subtract the entries of the iterations after it (the current one so
  // far, the complete ones between) and those of it after q.
  auto t = E(l) - N(l, d);
  for (std::uint32_t i = 1; i < q.back; ++i) t = t - W(l, d, i);
  return sl < q.stmt ? t : t - W(l, d, q.back);
}

smt::Term Encoder::count(model::EngineId engine, const Place& at, const Point& q) {
  const auto d = q.anchor;
  const auto& ix = places_.index();
  if (at.loop == d) {
    // Inside one block only the items of one engine's stream are ordered (q.item 0 is the
    // block's start, before every engine's items).
    if (at.stmt == q.stmt && q.item > 0 && engine != q.engine)
      throw std::logic_error("prover: an item counted against another engine's place in one block");
    const bool before = at.stmt < q.stmt || (at.stmt == q.stmt && at.item < q.item);
    return before ? C(d, q) : C(d, q) - 1;
  }
  if (ix.encloses(at.loop, d)) {
    // Its loop is an ancestor of d: q and c are in the same iteration of it, at the statement
    // holding d; the item has run in that iteration iff its statement comes before that one.
    return at.stmt < places_.stmt_in(at.loop, d) ? E(at.loop) : E(at.loop) - 1;
  }
  return C(at.loop, q);
}

smt::Term Encoder::count(model::InstrId i, const Point& q) {
  const auto& p = places_.instr(i);
  return count(p.engine, p.at, q);
}

namespace {

bool is_def(const Places& pl, const ItemRef& it, const std::string& reg) {
  if (it.kind != ItemRef::Kind::Write) return false;
  const auto& w = pl.writes()[it.index];
  return w.dst == reg && !increment_of(w);
}

}  // namespace

std::vector<Found> Encoder::search_back(const Point& q, const std::string* reg, const std::string& what) {
  return search_back(q, reg, what, ctx_.truth(true), 0);
}

std::vector<Found> Encoder::search_back(const Point& from, const std::string* reg, const std::string& what,
                                        smt::Term guard, int depth, bool instrs) {
  const auto& ix = places_.index();
  const auto e = engine_;
  auto event = [&](const ItemRef& it) {
    if (reg) return is_def(places_, it, *reg);
    return is_barrier(it) || (instrs && it.kind == ItemRef::Kind::Instr);
  };
  auto found_at = [&](const Point& p, const ItemRef& it) {
    Found f{guard, p, nullptr, &it, model::kTop};
    if (reg) f.def = &places_.writes()[it.index];
    return f;
  };
  if (from.back > 8 || depth > 64)
    throw Outside{what + ": its value comes from more than 8 iterations back (an assignment that reads itself?)"};
  std::vector<Found> out;
  Point q = from;
  const auto& body = places_.body(q.anchor);
  // 1. The statement q stands in, before q.
  if (q.stmt < body.size() && body[q.stmt].block) {
    const auto& items = body[q.stmt].items[e];
    for (std::uint32_t k = std::min<std::uint32_t>(q.item, items.size()); k-- > 0;)
      if (event(items[k])) {
        out.push_back(found_at(Point{q.anchor, q.back, q.stmt, k, e}, items[k]));
        return out;
      }
  }
  // 2. The statements before it, last first.
  for (std::uint32_t s = std::min<std::uint32_t>(q.stmt, body.size()); s-- > 0;) {
    const auto& st = body[s];
    if (st.block) {
      const auto& items = st.items[e];
      for (std::uint32_t k = items.size(); k-- > 0;)
        if (event(items[k])) {
          out.push_back(found_at(Point{q.anchor, q.back, s, k, e}, items[k]));
          return out;
        }
      continue;
    }
    // A loop statement (a cond's two branch loops) that ran before q in this iteration.
    smt::Term none_ran = ctx_.truth(true);
    bool any_event = false;
    for (const auto m : st.loops) {
      if (!places_.subtree_has(m, e, event)) continue;
      any_event = true;
      // Supported: the loop's body ends with the event on e, so after a trip of at least one
      // iteration the last event is that one, at the end of the last iteration, and what ran
      // after it up to the point after the statement is loop control only.
      const auto& mb = places_.body(m);
      const ItemRef* last = nullptr;
      if (!mb.empty() && mb.back().block && !mb.back().items[e].empty()) last = &mb.back().items[e].back();
      if (!reg && (!last || !event(*last))) {
        // The last barrier (or, with instructions, the last barrier or instruction) lies
        // inside m's last iteration, not at its end: frames.cpp looks there.
        const auto ran = q.back == 0 ? N(m, q.anchor) >= 1 : W(m, q.anchor, q.back) >= 1;
        Found f{guard && ran, Point{q.anchor, q.back, s + 1, 0, e}, nullptr, nullptr, m};
        f.inside = true;
        out.push_back(f);
        none_ran = none_ran && !ran;
        continue;
      }
      if (!last || !event(*last))
        throw Outside{what + ": " + (reg ? "assigned" : "a barrier") + " inside loop " + ix.loops[m].name +
                      ", which ran before the use, and not as the last item of its body on " + ix.engines[e] +
                      " (the prover follows assignments and barriers in the bodies of the loops around the use, "
                      "or at the very end of a loop that ran before it)"};
      if (!reg && is_barrier(*last))
        for (model::EngineId h = 0; h < ix.engines.size(); ++h)
          if (mb.back().items[h].empty() || !is_barrier(mb.back().items[h].back()))
            throw Outside{what + ": loop " + ix.loops[m].name + " ends with a barrier on " + ix.engines[e] +
                          " but not on " + ix.engines[h] +
                          " (the prover expects a barrier ending a loop to end it on every engine)"};
      if (reg) {
        // The assignment's value must not depend on where in the last iteration it ran: it
        // reads no register assigned inside the loop, and not its own destination.
        const auto& w = places_.writes()[last->index];
        for (const auto& r : w.expr.registers()) {
          const bool assigned_inside =
              r == *reg || places_.subtree_has(m, e, [&](const ItemRef& it) { return is_def(places_, it, r); });
          if (assigned_inside)
            throw Outside{what + ": assigned at the end of loop " + ix.loops[m].name + " from register " + r +
                          ", which is assigned inside that loop too"};
        }
      }
      const auto ran = q.back == 0 ? N(m, q.anchor) >= 1 : W(m, q.anchor, q.back) >= 1;
      Found f{guard && ran, Point{q.anchor, q.back, s + 1, 0, e}, nullptr, last, m};
      if (reg) f.def = &places_.writes()[last->index];
      out.push_back(f);
      none_ran = none_ran && !ran;
    }
    if (any_event) guard = guard && none_ran;
  }
  // 3. The start of the anchor's body: the previous iteration, or before the trip.
  if (q.anchor == model::kTop) {
    out.push_back(Found{guard, std::nullopt, nullptr, nullptr, model::kTop});
    return out;
  }
  const auto up = Point{places_.parent(q.anchor), 0, places_.stmt_of(q.anchor), 0, e};
  if (!places_.subtree_has(q.anchor, e, event)) {
    // No event anywhere in the loop: skip its whole trip.
    auto rest = search_back(up, reg, what, guard, depth + 1, instrs);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }
  const auto jd = j(q.anchor);
  // An earlier iteration j_anchor - back - 1 exists only if the rule allows back + 2 of them.
  if (ix.loops[q.anchor].kind == model::LoopKind::Loop && bounds_on_engine(q.anchor).hi >= q.back + 2) {
    auto prev = search_back(Point{q.anchor, q.back + 1, static_cast<std::uint32_t>(body.size()), 0, e}, reg, what,
                            guard && jd > q.back + 1, depth + 1, instrs);
    out.insert(out.end(), prev.begin(), prev.end());
  }
  auto before = search_back(up, reg, what, guard && jd <= q.back + 1, depth + 1, instrs);
  out.insert(out.end(), before.begin(), before.end());
  return out;
}

std::optional<Point> Encoder::next_barrier(const Point& q) {
  // Forward from q through the rest of its iteration; a loop statement holding a barrier stops
  // the search (its first barrier lies inside a trip that may not run).
  const auto e = engine_;
  const auto& body = places_.body(q.anchor);
  if (q.stmt < body.size() && body[q.stmt].block) {
    const auto& items = body[q.stmt].items[e];
    for (std::uint32_t k = q.item + 1; k < items.size(); ++k)
      if (is_barrier(items[k])) return Point{q.anchor, q.back, q.stmt, k, e};
  }
  for (std::uint32_t s = q.stmt + 1; s < body.size(); ++s) {
    const auto& st = body[s];
    if (st.block) {
      const auto& items = st.items[e];
      for (std::uint32_t k = 0; k < items.size(); ++k)
        if (is_barrier(items[k])) return Point{q.anchor, q.back, s, k, e};
      continue;
    }
    for (const auto m : st.loops)
      if (places_.subtree_has(m, e, is_barrier)) return std::nullopt;
  }
  return std::nullopt;
}

Point Encoder::on_engine(const Point& b, model::EngineId h) const {
  if (h == b.engine) return b;
  const auto& items = places_.body(b.anchor)[b.stmt].items;
  std::uint32_t ordinal = 0;
  for (std::uint32_t k = 0; k < b.item; ++k) ordinal += is_barrier(items[b.engine][k]);
  for (std::uint32_t k = 0; k < items[h].size(); ++k)
    if (is_barrier(items[h][k]) && ordinal-- == 0) return Point{b.anchor, b.back, b.stmt, k, h};
  throw std::logic_error("prover: barriers not aligned");
}

Point Encoder::on_engine(const Found& f, model::EngineId h) const {
  if (f.ended == model::kTop) return on_engine(*f.at, h);
  // The point after the loop whose body ends with the barrier on every engine (aligned): what
  // ran before that barrier on h is what ran before the point.
  auto p = *f.at;
  p.engine = h;
  return p;
}

}  // namespace syncbisim::prover::detail
