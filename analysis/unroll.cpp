#include "analysis/unroll.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "analysis/dependency_analysis.h"
#include "model/walk.h"

namespace syncbisim::analysis {

namespace {

using model::LoopId;

struct Copier {
  const std::string& loop;
  std::uint32_t copy;
  std::set<std::string> inner = {};  // loops inside the copied body (renamed with it)

  std::string name(const std::string& id) const { return unrolled_name(id, loop, copy); }

  // A footprint's indices in this copy (docs/footprints.md): the unrolled loop is the constant
  // iteration number of the copy (counted from 0), a loop inside the body its renamed copy.
  void rename_indices(model::Footprint& f) const {
    const auto fix = [&](model::IndexExpr& e) {
      for (auto& n : e.nodes) {
        if (n.op != model::IndexOp::Loop) continue;
        if (n.loop == loop) n = model::IndexNode{model::IndexOp::Const, static_cast<std::int64_t>(copy) - 1, {}, 0, 0};
        else if (inner.count(n.loop)) n.loop = name(n.loop);
      }
    };
    for (auto k : {model::AccessKind::Read, model::AccessKind::Write, model::AccessKind::Accumulate})
      for (auto& a : f.of(k))
        for (auto& sub : a.index) {
          if (auto* p = std::get_if<model::IndexPoint>(&sub)) fix(p->at);
          else if (auto* r = std::get_if<model::IndexRange>(&sub)) {
            if (r->lo) fix(*r->lo);
            if (r->hi) fix(*r->hi);
          }
        }
  }

  // A renamed copy of `in`: its instructions, loops and conds, and its footprints' indices.
  std::vector<model::Stmt> body(std::vector<model::Stmt> in) const {
    return model::transform(std::move(in), [this](model::Stmt&& s, std::vector<model::Stmt>& out) {
      if (auto* b = std::get_if<model::Block>(&s.node)) {
        for (auto& st : b->streams)
          for (auto& it : st.items)
            if (auto* in_ = std::get_if<model::Instr>(&it)) {
              in_->id = name(in_->id);
              if (!in_->footprint->empty()) rename_indices(in_->footprint.edit());
            }
      } else if (auto* l = std::get_if<model::Loop>(&s.node)) {
        l->id = name(l->id);
      } else {
        auto& c = std::get<model::Cond>(s.node);
        c.id = name(c.id);
      }
      out.push_back(std::move(s));
    });
  }
};

// Replaces the statement of loop `id` by `trip` renamed copies of its body.
bool replace(std::vector<model::Stmt>& body, const std::string& id, std::uint32_t trip) {
  bool replaced = false;
  model::for_each_body(body, [&](std::vector<model::Stmt>& list) {
    if (replaced) return;  // loop ids are unique; the copies' are renamed
    const auto at = std::find_if(list.begin(), list.end(), [&](const model::Stmt& s) {
      const auto* l = std::get_if<model::Loop>(&s.node);
      return l && l->id == id;
    });
    if (at == list.end()) return;
    const model::Loop orig = std::move(std::get<model::Loop>(at->node));
    std::set<std::string> inner;
    model::for_each_stmt(orig.body, [&](const model::Stmt& st, const model::LoopPath&) {
      if (const auto* il = std::get_if<model::Loop>(&st.node)) inner.insert(il->id);
    });
    std::vector<model::Stmt> copies;
    for (std::uint32_t k = 1; k <= trip; ++k) {
      auto b = Copier{id, k, inner}.body(orig.body);
      copies.insert(copies.end(), std::make_move_iterator(b.begin()), std::make_move_iterator(b.end()));
    }
    const auto pos = list.erase(at);
    list.insert(pos, std::make_move_iterator(copies.begin()), std::make_move_iterator(copies.end()));
    replaced = true;
  });
  return replaced;
}

std::uint32_t rule_min(const model::TripRule& r, const std::vector<std::string>& engines) {
  std::uint32_t m = UINT32_MAX;
  for (const auto& e : engines) {
    m = std::min(m, model::choice_min(r.for_engine(e)));
  }
  return m;
}

model::Result<model::Program> unroll_one(const model::Program& spec, const model::ProgramIndex& ix,
                                         const std::string& name, std::uint64_t max_unroll) {
  const auto lid = ix.loop(name);
  if (!lid || ix.loops[*lid].kind != model::LoopKind::Loop)
    return model::make_error("--unroll", "unroll-unknown-loop", "no loop named '" + name + "' to unroll");
  const auto& info = ix.loops[*lid];
  const auto* c = info.trip ? std::get_if<model::ConstTrip>(&info.trip->uniform) : nullptr;
  if (!c || info.trip->divergent || !info.trip->per_engine.empty())
    return model::make_error(
        info.loc.where, "unroll-not-constant",
        "loop '" + name + "' has no constant trip count the same on every engine: it cannot be unrolled");
  const std::uint32_t trip = c->n;
  for (LoopId l = 1; l < ix.loops.size(); ++l)
    if (l != *lid && ix.encloses(*lid, l) && ix.loops[l].trip && ix.loops[l].trip->divergent)
      return model::make_error(ix.loops[l].loc.where, "unroll-divergent",
                               "loop '" + name + "' holds '" + ix.loops[l].name +
                                   "' with a per-engine rule: its copies could not be told apart per engine");

  auto inside = [&](model::InstrId i) { return ix.encloses(*lid, ix.instrs[i].parent); };
  // The size of the result, before building it (issue 43: a trip of 2^32 - 1 ran out of memory).
  if (max_unroll > 0) {
    std::uint64_t in = 0, touching = 0;
    for (model::InstrId i = 0; i < ix.instrs.size(); ++i) in += inside(i);
    for (const auto& d : spec.deps) {
      const auto p = ix.instr(d.producer), q = ix.instr(d.consumer);
      touching += (p && inside(*p)) || (q && inside(*q));
    }
    const std::uint64_t instrs = ix.instrs.size() - in + in * trip;
    const std::uint64_t deps = spec.deps.size() - touching + touching * trip;
    if (instrs > max_unroll || deps > max_unroll)
      return model::make_error(
          info.loc.where, "unroll-too-large",
          "unrolling loop '" + name + "' (trip " + std::to_string(trip) + ") would give " + std::to_string(instrs) +
              " instructions and " + std::to_string(deps) + " dependencies, past the limit of " +
              std::to_string(max_unroll) + " each (--max-unroll N raises it)");
  }
  const auto analysis = analysis::analyze_dependencies(spec, ix);
  // Whether the producer may have no instance in some iteration of the loop: a loop strictly
  // inside it on the producer's path that may run 0 times, or a cond branch.
  auto zero_possible = [&](model::InstrId p) {
    for (LoopId l = ix.instrs[p].parent; l != *lid; l = ix.loops[l].parent) {
      if (ix.loops[l].kind != model::LoopKind::Loop) return true;
      if (!ix.loops[l].trip || rule_min(*ix.loops[l].trip, ix.engines) == 0) return true;
    }
    return false;
  };
  auto inexact = [&](const model::Dependency& d, std::size_t i, const std::string& why) {
    return model::make_error(
        d.loc.where.empty() ? "/deps/" + std::to_string(i) : d.loc.where, "unroll-inexact",
        "cannot unroll loop '" + name + "' exactly: dependency " + d.producer + " -> " + d.consumer + " " + why);
  };

  std::vector<model::Dependency> deps;
  for (std::size_t i = 0; i < spec.deps.size(); ++i) {
    const auto& d = spec.deps[i];
    const auto& a = analysis.deps[i];
    const bool pin = inside(a.producer), cin = inside(a.consumer);
    if (!pin && !cin) {
      deps.push_back(d);
      continue;
    }
    bool all_zero = true;
    for (auto k : a.distance) all_zero = all_zero && k == 0;
    if (pin && !cin) {
      // One dependency per copy, same distance (the common loops lie above the loop). When the
      // loop sits directly in S and P is the loop itself, the copies land directly in S, where a
      // dependency at offset 0 owes S's current iteration: exact only if the producer came first.
      if (a.P == *lid && info.parent == a.S && all_zero && !a.forward)
        return inexact(d, i,
                       "is a nested backward dependency at offset 0: its copies would sit directly in " +
                           ix.loops[a.S].name + " and owe its current iteration");
      for (std::uint32_t j = 1; j <= trip; ++j)
        deps.push_back(model::Dependency{unrolled_name(d.producer, name, j), d.consumer, d.distance, d.loc});
      continue;
    }
    if (!pin && cin) {
      for (std::uint32_t k = 1; k <= trip; ++k)
        deps.push_back(model::Dependency{d.producer, unrolled_name(d.consumer, name, k), d.distance, d.loc});
      continue;
    }
    // Both inside: the loop is a common loop. Split the distance above it, at it, below it.
    const auto at = static_cast<std::size_t>(std::find(a.common.begin(), a.common.end(), *lid) - a.common.begin());
    const std::uint32_t dl = a.distance[at];
    std::map<std::string, std::uint32_t> pre, below;
    for (const auto& [l, k] : d.distance) {
      const auto pos =
          static_cast<std::size_t>(std::find(a.common.begin(), a.common.end(), *ix.loop(l)) - a.common.begin());
      if (pos < at) pre[l] = k;
      else if (pos > at) below[l] = k;
    }
    // Does the consumer owe the producer's instances of S's current iteration (P = S, or a
    // nested producer its engine has passed)? Otherwise only older iterations (docs/analysis.md).
    const bool own_current = a.P == a.S || (a.forward && !a.exclusive_branches);
    const bool needs_copies = trip > dl;
    if (needs_copies && zero_possible(a.producer))
      return inexact(d, i,
                     "has a producer that may run 0 times in an iteration of the loop: the copy holding "
                     "the last instance owed is not known statically");
    if (at + 1 == a.common.size()) {
      // The loop is S. Copy k owes up to iteration k - dl of the loop (paper §4: the target).
      for (std::uint32_t k = 1; k <= trip; ++k) {
        if (k <= dl) continue;  // the target falls before the first iteration: nothing owed
        if (all_zero && !own_current) {
          // owes only earlier iterations: the last one owed is copy k - 1 (or copy T of S's
          // previous iteration, for the first copy)
          const std::uint32_t j = k >= 2 ? k - 1 : trip;
          deps.push_back(
              model::Dependency{unrolled_name(d.producer, name, j), unrolled_name(d.consumer, name, k), {}, d.loc});
        } else {
          deps.push_back(model::Dependency{unrolled_name(d.producer, name, k - dl), unrolled_name(d.consumer, name, k),
                                           pre, d.loc});
        }
      }
      continue;
    }
    // The loop lies above S: a target in another copy at an inner iteration cannot be named.
    if (dl != 0) return inexact(d, i, "has a distance at the loop and inside it (a multi-level distance)");
    for (std::uint32_t k = 1; k <= trip; ++k) {
      auto dist = pre;
      for (const auto& [l, v] : below) dist[unrolled_name(l, name, k)] = v;
      deps.push_back(model::Dependency{unrolled_name(d.producer, name, k), unrolled_name(d.consumer, name, k),
                                       std::move(dist), d.loc});
      if (all_zero && !own_current && trip >= 2) {
        const std::uint32_t j = k >= 2 ? k - 1 : trip;
        deps.push_back(
            model::Dependency{unrolled_name(d.producer, name, j), unrolled_name(d.consumer, name, k), {}, d.loc});
      }
    }
  }

  model::Program out = spec;
  replace(out.body, name, trip);
  out.deps = std::move(deps);
  model::normalize(out);
  if (auto r = model::ProgramIndex::build(out); !r) {
    auto e = r.error();
    if (e.rule == "duplicate-instr" || e.rule == "duplicate-loop") {
      e.rule = "unroll-name-clash";
      e.message = "unrolling loop '" + name + "' makes an id the spec already uses: " + e.message;
    }
    return e;
  }
  return out;
}

}  // namespace

std::string unrolled_name(const std::string& id, const std::string& loop, std::uint32_t copy) {
  return id + "." + loop + "." + std::to_string(copy);
}

std::vector<std::string> unrolled_loops(const model::ProgramIndex& spec, const model::ProgramIndex& impl) {
  // An unrolled name is the spec's id followed by (".", loop, ".", copy) pairs, loops innermost
  // first; the base id itself never holds a '.' in a spec that came from a file, but the spec may
  // be an unrolled one already, so the base is matched against the spec's own ids.
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const auto& in : impl.instrs) {
    if (spec.instr(in.name)) continue;
    for (std::size_t cut = in.name.find('.'); cut != std::string::npos; cut = in.name.find('.', cut + 1)) {
      const auto base = spec.instr(in.name.substr(0, cut));
      if (!base) continue;
      // the rest: .L.k pairs
      std::size_t at = cut;
      bool well_formed = true;
      std::vector<std::string> loops;
      while (at < in.name.size() && well_formed) {
        const auto l_end = in.name.find('.', at + 1);
        if (l_end == std::string::npos) {
          well_formed = false;
          break;
        }
        const auto k_end = std::min(in.name.find('.', l_end + 1), in.name.size());
        const auto k = in.name.substr(l_end + 1, k_end - l_end - 1);
        well_formed = !k.empty() && std::all_of(k.begin(), k.end(), [](char c) { return c >= '0' && c <= '9'; });
        loops.push_back(in.name.substr(at + 1, l_end - at - 1));
        at = k_end;
      }
      if (!well_formed) continue;
      for (const auto& l : loops) {
        const auto id = spec.loop(l);
        if (!id || spec.loops[*id].kind != model::LoopKind::Loop || impl.loop(l)) continue;
        if (!spec.encloses(*id, spec.instrs[*base].parent)) continue;
        if (seen.insert(l).second) out.push_back(l);
      }
      break;
    }
  }
  return out;
}

model::Result<model::Program> unroll(const model::Program& spec, const model::ProgramIndex& ix,
                                     const std::vector<std::string>& loops, std::uint64_t max_unroll) {
  // innermost first: an outer loop's copies then hold the inner loop's copies
  std::vector<std::pair<std::uint32_t, std::string>> order;
  std::unordered_set<std::string> seen;
  for (const auto& l : loops) {
    const auto id = ix.loop(l);
    if (!id || ix.loops[*id].kind != model::LoopKind::Loop)
      return model::make_error("--unroll", "unroll-unknown-loop", "no loop named '" + l + "' to unroll");
    if (seen.insert(l).second) order.emplace_back(ix.loops[*id].depth, l);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  model::Program cur = spec;
  for (const auto& [depth, l] : order) {
    auto cur_ix = model::ProgramIndex::build(cur);
    if (!cur_ix) return cur_ix.error();
    auto next = unroll_one(cur, *cur_ix, l, max_unroll);
    if (!next) return next.error();
    cur = std::move(*next);
  }
  return cur;
}

std::string UnrolledSpec::note() const {
  std::string names;
  for (const auto& l : loops) names += (names.empty() ? "" : ", ") + l;
  return "the impl unrolls loop " + names + "; checked against the spec with it unrolled (instance k of X named X.L.k)";
}

model::Result<std::optional<UnrolledSpec>> unrolled_to_match(const model::Program& spec, const model::ProgramIndex& ix,
                                                             const model::ProgramIndex& impl) {
  auto loops = unrolled_loops(ix, impl);
  if (loops.empty()) return std::optional<UnrolledSpec>{};
  // A spec unrolled to match has as many instructions as the impl when they correspond: any more
  // and they cannot, so the impl's size (or the default limit, if larger) bounds the unroll.
  auto u = unroll(spec, ix, loops, std::max<std::uint64_t>(kDefaultMaxUnroll, impl.instrs.size()));
  if (!u) {
    auto d = u.error();
    d.message = "the impl unrolls " + loops.front() + (loops.size() > 1 ? " and more" : "") +
                ", which the spec cannot be unrolled to match: " + d.message;
    return d;
  }
  auto uix = model::ProgramIndex::build(*u);
  if (!uix) return uix.error();
  return std::optional<UnrolledSpec>{UnrolledSpec{std::move(*u), std::move(*uix), std::move(loops)}};
}

}  // namespace syncbisim::analysis
