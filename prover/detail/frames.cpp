// Inside loops that ended (docs/prover.md "Inside loops that ended"). A point of the walk lies in
// the loops around the consumer; a barrier the lock step released before c may lie inside a loop
// that ran to its end before c (the barrier at the end of an inner loop's last iteration, the one
// before a nested loop), and the held chain walks back through those. A frame is one iteration of
// such a loop m, the nth from the end of its trip: what ran before its end is known (the counts at
// the place after m's statement, or at the end of the next iteration), and what ran during it is
// the entries of m's loops in that one iteration, unknowns within the trip rules. A place inside
// it then counts what ran before the end minus what of the iteration comes after the place. That
// is exact for the consumer's engine and for every engine's instructions no per-engine rule
// encloses (they count alike on every engine, paper §7.1), the only ones the frontier facts name.
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

namespace {

// More iterations back than this, a search inside an ended loop gives up (Outside): the callers
// then know less, never something wrong.
constexpr std::uint32_t kMaxFrameBack = 8;

}  // namespace

Encoder::Frame Encoder::frame_of(model::LoopId m, std::uint32_t nth, smt::Term exists, smt::Term trip,
                                 std::map<model::InstrId, smt::Term> end) {
  const auto& ix = places_.index();
  Frame f{m, nth, exists, trip, std::move(end), {}};
  const auto tag = ix.loops[m].name + "_" + std::to_string(nth);
  // Parents before children: a body's loops, then theirs.
  std::vector<model::LoopId> todo{m};
  while (!todo.empty()) {
    const auto a = todo.back();
    todo.pop_back();
    for (const auto& st : places_.body(a)) {
      if (st.block) continue;
      for (const auto l : st.loops) {
        auto v = nat("in_" + tag + "_" + ix.loops[l].name);
        // One trip of l per iteration of its parent (within this iteration of m), within l's
        // rule; a cond's two branches add up to one trip.
        const auto b = bounds_on_engine(l);
        const auto up = a == m ? ctx_.nat(1) : f.entries.at(a);
        facts_.push_back(implies(exists, v >= b.lo * up && v <= b.hi * up));
        if (fixable_chain(l, m)) family_.push_back(implies(exists, v == full(l, m)));
        f.entries.emplace(l, v);
        todo.push_back(l);
      }
      if (st.loops.size() == 2)
        facts_.push_back(implies(
            exists, f.entries.at(st.loops[0]) + f.entries.at(st.loops[1]) == (a == m ? ctx_.nat(1) : f.entries.at(a))));
    }
  }
  for (const auto& [i, n] : f.end) facts_.push_back(implies(exists, n >= runs_in(f, i)));
  return f;
}

smt::Term Encoder::runs_in(const Frame& f, model::InstrId i) const {
  const auto l = places_.instr(i).at.loop;
  if (l == f.m) return ctx_.nat(1);
  if (places_.index().encloses(f.m, l)) return f.entries.at(l);
  return ctx_.nat(0);
}

std::map<model::InstrId, smt::Term> Encoder::counts_in(const Frame& f, const FramePlace& at) const {
  const auto& ix = places_.index();
  const auto& body = places_.body(f.m);
  // The barrier at `at` on each engine's stream: the one of the same ordinal in the block
  // (aligned barriers).
  std::uint32_t ordinal = 0;
  if (!at.start)
    for (std::uint32_t k = 0; k < at.item; ++k) ordinal += is_barrier(body[at.stmt].items[engine_][k]);
  std::map<model::InstrId, smt::Term> out;
  for (const auto& [i, end] : f.end) {
    const auto& p = places_.instr(i);
    bool after = false;
    if (p.at.loop == f.m || ix.encloses(f.m, p.at.loop)) {
      const auto s = places_.stmt_in(f.m, p.at);
      if (s != at.stmt || at.start) {
        after = s >= at.stmt;
      } else {
        const auto& items = body[s].items[p.engine];
        std::uint32_t n = 0, k = 0;
        for (; k < items.size(); ++k)
          if (is_barrier(items[k]) && n++ == ordinal) break;
        after = p.at.item > k;
      }
    }
    out.emplace(i, after ? end - runs_in(f, i) : end);
  }
  return out;
}

std::map<model::InstrId, smt::Term> Encoder::counts_at(const Spot& s) {
  if (s.in_frame()) return counts_in(s.where.stack.back(), s.at);
  std::map<model::InstrId, smt::Term> n;
  for (const auto& [i, r] : R_)
    if (countable(i)) n.emplace(i, count(i, on_engine(*s.outer, places_.instr(i).engine)));
  return n;
}

std::vector<Encoder::Spot> Encoder::search_in(const Frames& where, const FramePlace& from, smt::Term guard, bool instrs,
                                              int depth) {
  const auto& ix = places_.index();
  const auto e = engine_;
  const auto& f = where.stack.back();
  const auto m = f.m;
  const auto& body = places_.body(m);
  auto event = [&](const ItemRef& it) { return is_barrier(it) || (instrs && it.kind == ItemRef::Kind::Instr); };
  auto found = [&](std::uint32_t s, std::uint32_t k, const ItemRef& it) {
    return Spot{guard, std::nullopt, where, FramePlace{s, k, false}, &it, model::kTop, false};
  };
  if (depth > 64) throw Outside{"too many loops to search back through"};
  std::vector<Spot> out;
  // 1. The block `from` stands in, before it.
  if (!from.start && from.stmt < body.size() && body[from.stmt].block) {
    const auto& items = body[from.stmt].items[e];
    for (std::uint32_t k = std::min<std::uint32_t>(from.item, items.size()); k-- > 0;)
      if (event(items[k])) {
        out.push_back(found(from.stmt, k, items[k]));
        return out;
      }
  }
  // 2. The statements before it, last first; a loop that ran in this iteration ends with its
  // event (the search goes on before it when it did not run).
  for (std::uint32_t s = std::min<std::uint32_t>(from.stmt, body.size()); s-- > 0;) {
    const auto& st = body[s];
    if (st.block) {
      const auto& items = st.items[e];
      for (std::uint32_t k = items.size(); k-- > 0;)
        if (event(items[k])) {
          out.push_back(found(s, k, items[k]));
          return out;
        }
      continue;
    }
    smt::Term none_ran = ctx_.truth(true);
    bool any_event = false;
    for (const auto g : st.loops) {
      if (!places_.subtree_has(g, e, event)) continue;
      any_event = true;
      const auto ran = f.entries.at(g) >= 1;
      const auto& gb = places_.body(g);
      const ItemRef* last = nullptr;
      if (!gb.empty() && gb.back().block && !gb.back().items[e].empty()) last = &gb.back().items[e].back();
      Spot sp{guard && ran, std::nullopt, where, FramePlace{s + 1, 0, true}, last, g, false};
      if (!last || !event(*last)) {
        // The last event lies inside g's last iteration, before its end: a frame of its own.
        sp.item = nullptr;
        auto in = inside(sp, instrs, depth + 1);
        out.insert(out.end(), in.begin(), in.end());
        none_ran = none_ran && !ran;
        continue;
      }
      if (is_barrier(*last)) {
        for (model::EngineId h = 0; h < ix.engines.size(); ++h)
          if (gb.back().items[h].empty() || !is_barrier(gb.back().items[h].back()))
            throw Outside{"loop " + ix.loops[g].name + " ends with a barrier on " + ix.engines[e] + " but not on " +
                          ix.engines[h] + " (the prover expects a barrier ending a loop to end it on every engine)"};
      }
      out.push_back(sp);
      none_ran = none_ran && !ran;
    }
    if (any_event) guard = guard && none_ran;
  }
  // 3. The start of m's body: the iteration before (another frame), or before m's statement
  // (the frame around, or the ordinary walk).
  if (ix.loops[m].kind == model::LoopKind::Loop && bounds_on_engine(m).hi >= f.nth + 2) {
    if (f.nth + 1 > kMaxFrameBack)
      throw Outside{"more than " + std::to_string(kMaxFrameBack) + " iterations back inside loop " + ix.loops[m].name};
    std::map<model::InstrId, smt::Term> end;
    for (const auto& [i, n] : f.end) end.emplace(i, n - runs_in(f, i));
    const auto more = f.trip >= f.nth + 2;
    auto prev = where;
    prev.stack.back() = frame_of(m, f.nth + 1, f.exists && more, f.trip, std::move(end));
    auto rest =
        search_in(prev, FramePlace{static_cast<std::uint32_t>(body.size()), 0, true}, guard && more, instrs, depth + 1);
    out.insert(out.end(), rest.begin(), rest.end());
  }
  const auto first = f.trip <= f.nth + 1;
  if (where.stack.size() == 1) {
    const auto& q = where.outer;
    auto rest = lift(search_back(Point{q.anchor, q.back, places_.stmt_of(m), 0, e}, nullptr,
                                 "the barriers before the consumer", guard && first, depth + 1, instrs),
                     instrs, depth + 1);
    out.insert(out.end(), rest.begin(), rest.end());
  } else {
    auto up = where;
    up.stack.pop_back();
    auto rest = search_in(up, FramePlace{places_.stmt_of(m), 0, true}, guard && first, instrs, depth + 1);
    out.insert(out.end(), rest.begin(), rest.end());
  }
  return out;
}

Encoder::Frames Encoder::enter(const Spot& s) {
  // The last iteration of loop s.ended, which ran (s.guard) and ended just before s's place.
  const auto g = s.ended;
  Frames where;
  smt::Term trip;
  if (s.in_frame()) {
    where = s.where;
    trip = where.stack.back().entries.at(g);
  } else {
    const auto& q = *s.outer->at;
    where.outer = q;
    trip = q.back == 0 ? N(g, q.anchor) : W(g, q.anchor, q.back);
  }
  where.stack.push_back(frame_of(g, 0, s.guard, trip, counts_at(s)));
  return where;
}

std::vector<Encoder::Spot> Encoder::inside(const Spot& s, bool instrs, int depth) {
  // The last event before the place after loop s.ended lies inside its last iteration, and not
  // at its end: search that iteration from its end. When the search gives up looking for the
  // chain of barriers before c, the chain ends there, somewhere unknown (opaque).
  try {
    const auto where = enter(s);
    return search_in(where, FramePlace{static_cast<std::uint32_t>(places_.body(s.ended).size()), 0, true}, s.guard,
                     instrs, depth);
  } catch (const Outside&) {
    if (!instrs) throw;
    auto o = s;
    o.item = nullptr;
    o.opaque = places_.subtree_has(s.ended, engine_, is_barrier);
    return {o};
  }
}

std::vector<Encoder::Spot> Encoder::lift(const std::vector<Found>& found, bool instrs, int depth) {
  std::vector<Spot> out;
  for (const auto& g : found) {
    Spot s{g.guard, g, {}, {}, g.item, g.ended, false};
    if (!g.inside) {
      out.push_back(s);
      continue;
    }
    auto in = inside(s, instrs, depth);
    out.insert(out.end(), in.begin(), in.end());
  }
  return out;
}

std::vector<Encoder::Spot> Encoder::search_back_spots(const Point& from, const std::string& what, smt::Term guard,
                                                      bool instrs) {
  return lift(search_back(from, nullptr, what, guard, 0, instrs), instrs, 0);
}

std::vector<Encoder::Spot> Encoder::search_before(const Spot& s, bool instrs) {
  if (s.ended == model::kTop) {
    if (s.in_frame()) return search_in(s.where, s.at, s.guard, instrs, 0);
    return search_back_spots(*s.outer->at, "the barriers before the consumer", s.guard, instrs);
  }
  // Into the last iteration of the loop the event ends, just before its final barrier.
  const auto where = enter(s);
  const auto& gb = places_.body(s.ended);
  const auto last = static_cast<std::uint32_t>(gb.size() - 1);
  return search_in(where, FramePlace{last, static_cast<std::uint32_t>(gb.back().items[engine_].size() - 1), false},
                   s.guard, instrs, 0);
}

Encoder::Counts Encoder::barrier_before(const Spot& s) {
  // The release before barrier s: what every engine had retired then, per instruction, as cases.
  Counts out;
  try {
    for (const auto& b : search_before(s, false)) {
      if (!b.in_frame() && !b.outer->at) continue;  // no barrier before: nothing known
      out.emplace_back(b.guard, counts_at(b));
    }
  } catch (const Outside&) {
    // A layout the search does not follow: no lower bounds (fewer facts, never a wrong one).
    out.clear();
  }
  return out;
}

}  // namespace syncbisim::prover::detail
