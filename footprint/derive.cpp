#include "footprint/derive.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "footprint/detail/presburger.h"
#include "footprint/enumerate.h"
#include "model/footprint_check.h"

namespace syncbisim::footprint {

std::string Justification::to_string(const std::string& producer, const std::string& consumer) const {
  return std::string(footprint::to_string(hazard)) + " on " + element + ": " + producer + " " + producer_at + " " +
         producer_access + ", then " + consumer + " " + consumer_at + " " + consumer_access;
}

std::size_t Derivation::kept() const {
  return static_cast<std::size_t>(std::count_if(deps.begin(), deps.end(), [](const auto& d) { return d.implied_by.empty(); }));
}

std::vector<model::Dependency> Derivation::graph() const {
  std::vector<model::Dependency> out;
  for (const auto& d : deps)
    if (d.implied_by.empty()) out.push_back(d.dep);
  return out;
}

std::string dependency_text(const model::Dependency& d) {
  std::string out = d.producer + " -> " + d.consumer;
  std::string dist;
  for (const auto& [loop, k] : d.distance) dist += (dist.empty() ? "" : ", ") + loop + "=" + std::to_string(k);
  for (const auto& loop : d.every) dist += (dist.empty() ? "" : ", ") + loop + "=*";
  return dist.empty() ? out : out + " distance " + dist;
}

namespace {

using detail::Decided;

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string vec_text(const std::vector<std::int64_t>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return "(" + out + ")";
}

// ISL text for the kernel's pieces. A statement's loops are the variables `<prefix><k>`.
class IslText {
 public:
  explicit IslText(const Kernel& k) : k_(k) {}

  std::vector<std::string> vars(const Statement& s, const std::string& prefix) const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.loops.size(); ++i) out.push_back(prefix + std::to_string(i));
    return out;
  }

  std::string domain(const Statement& s, const std::vector<std::string>& v) const {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < s.loops.size(); ++i)
      parts.push_back("0 <= " + v[i] + " < " + std::to_string(k_.loops[s.loops[i]].max_trip));
    return parts.empty() ? "1 = 1" : join(parts, " and ");
  }

  std::string expr(const model::IndexExpr& e, const Statement& s, const std::vector<std::string>& v) const {
    return node(e, static_cast<std::uint32_t>(e.nodes.size() - 1), s, v);
  }

  // The access's element e (variables `ev`) as constraints on the statement's variables.
  std::string access(const KernelAccess& a, const Statement& s, const std::vector<std::string>& v,
                     const std::vector<std::string>& ev) const {
    std::vector<std::string> parts;
    for (std::size_t d = 0; d < a.access.index.size(); ++d) {
      const auto size = std::to_string(d < a.shape.size() ? a.shape[d] : 0);
      parts.push_back("0 <= " + ev[d] + " < " + size);
      if (const auto* p = std::get_if<model::IndexPoint>(&a.access.index[d])) {
        parts.push_back(ev[d] + " = " + expr(p->at, s, v));
      } else if (const auto* r = std::get_if<model::IndexRange>(&a.access.index[d])) {
        if (r->lo) parts.push_back(expr(*r->lo, s, v) + " <= " + ev[d]);
        if (r->hi) parts.push_back(ev[d] + " < " + expr(*r->hi, s, v));
      }
    }
    return join(parts, " and ");
  }

 private:
  std::string node(const model::IndexExpr& e, std::uint32_t i, const Statement& s, const std::vector<std::string>& v) const {
    const auto& n = e.nodes[i];
    const auto sub = [&](std::uint32_t j) { return "(" + node(e, j, s, v) + ")"; };
    switch (n.op) {
      case model::IndexOp::Const: return n.value < 0 ? "(" + std::to_string(n.value) + ")" : std::to_string(n.value);
      case model::IndexOp::Loop:
        for (std::size_t k = 0; k < s.loops.size(); ++k)
          if (k_.loops[s.loops[k]].name == n.loop) return v[k];
        return "0";  // the loader let no other loop through
      case model::IndexOp::Neg: return "-" + sub(n.lhs);
      case model::IndexOp::Add: return sub(n.lhs) + " + " + sub(n.rhs);
      case model::IndexOp::Sub: return sub(n.lhs) + " - " + sub(n.rhs);
      case model::IndexOp::Mul: return sub(n.lhs) + " * " + sub(n.rhs);
      // The divisor is a positive constant (the parser folded it): ISL wants it bare.
      case model::IndexOp::Mod: return sub(n.lhs) + " mod " + std::to_string(e.nodes[n.rhs].value);
      case model::IndexOp::FloorDiv: return "floor(" + sub(n.lhs) + " / " + std::to_string(e.nodes[n.rhs].value) + ")";
    }
    return "0";
  }
  const Kernel& k_;
};

// One conflicting access pair of two statements, at one carrying level.
struct AccessPair {
  std::size_t pa = 0, ca = 0;  // indices into the statements' accesses
  Hazard hazard = Hazard::RAW;
};

class Deriver {
 public:
  Deriver(const Kernel& k, const DeriveOptions& o) : k_(k), o_(o), isl_(o.isl_max_operations), text_(k) {}

  Derivation run() {
    // Pairs of statements that touch one buffer, with the hazard of each access pair; the
    // earlier instance is the producer, and both orders of two statements are looked at.
    std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> touches;  // buffer -> (stmt, access)
    for (std::size_t s = 0; s < k_.statements.size(); ++s)
      for (std::size_t a = 0; a < k_.statements[s].accesses.size(); ++a)
        touches[k_.statements[s].accesses[a].access.buffer].emplace_back(s, a);
    std::map<std::pair<std::size_t, std::size_t>, std::vector<AccessPair>> pairs;
    for (const auto& [buffer, list] : touches)
      for (const auto& [ps, pa] : list)
        for (const auto& [cs, ca] : list) {
          const auto h = hazard_between(k_.statements[ps].accesses[pa].kind, k_.statements[cs].accesses[ca].kind);
          if (!h || !may_meet(ps, pa, cs, ca)) continue;
          pairs[{ps, cs}].push_back(AccessPair{pa, ca, *h});
        }
    for (const auto& [sc, aps] : pairs) statement_pair(sc.first, sc.second, aps);
    if (o_.reduce) {
      reduce();
      reduce_by_executions();
      annotate_reasons();
    }
    return std::move(out_);
  }

 private:
  // Cheap filter first: the two accesses' boxes over all iterations meet in every dimension
  // (each access's box computed once).
  bool may_meet(std::size_t ps, std::size_t pa, std::size_t cs, std::size_t ca) {
    const auto& ra = box_of(ps, pa);
    const auto& rb = box_of(cs, ca);
    for (std::size_t d = 0; d < ra.size() && d < rb.size(); ++d)
      if (ra[d].second < rb[d].first || rb[d].second < ra[d].first) return false;
    return true;
  }
  const std::vector<std::pair<std::int64_t, std::int64_t>>& box_of(std::size_t s, std::size_t a) {
    auto& slot = boxes_[{s, a}];
    if (slot.empty()) {
      const auto& acc = k_.statements[s].accesses[a];
      for (std::size_t d = 0; d < acc.access.index.size(); ++d) slot.push_back(range(acc, k_.statements[s], d));
    }
    return slot;
  }
  std::pair<std::int64_t, std::int64_t> range(const KernelAccess& a, const Statement& s, std::size_t d) const {
    const auto size = static_cast<std::int64_t>(d < a.shape.size() ? a.shape[d] : 0);
    const auto max_iter = [&](const std::string& name) -> std::int64_t {
      for (auto l : s.loops)
        if (k_.loops[l].name == name) return static_cast<std::int64_t>(k_.loops[l].max_trip) - 1;
      return 0;
    };
    const auto bounds = [&](const model::IndexExpr& e) {
      const auto b = model::index_bounds(e, max_iter);
      return b ? std::make_pair(b->lo, b->hi) : std::make_pair(INT64_MIN / 4, INT64_MAX / 4);
    };
    if (const auto* p = std::get_if<model::IndexPoint>(&a.access.index[d])) return bounds(p->at);
    if (const auto* r = std::get_if<model::IndexRange>(&a.access.index[d])) {
      const auto lo = r->lo ? bounds(*r->lo).first : 0;
      const auto hi = r->hi ? bounds(*r->hi).second - 1 : size - 1;
      return {lo, hi};
    }
    return {0, size - 1};
  }

  // The set of (producer iteration, consumer iteration[, element]) at carrying level `c` for one
  // access pair; with `element` the element's variables are dimensions too.
  std::string pair_set_body(std::size_t ps, std::size_t cs, const AccessPair& ap, std::size_t c, bool element,
                            std::vector<std::string>& dims) const {
    const auto& P = k_.statements[ps];
    const auto& C = k_.statements[cs];
    const auto pv = text_.vars(P, "p"), cv = text_.vars(C, "c");
    const auto& acc = P.accesses[ap.pa];
    std::vector<std::string> ev;
    for (std::size_t d = 0; d < acc.access.index.size(); ++d) ev.push_back("e" + std::to_string(d));
    const auto m = k_.common_loops(P, C).size();
    std::vector<std::string> parts{text_.domain(P, pv), text_.domain(C, cv)};
    for (std::size_t k = 0; k < c && k < m; ++k) parts.push_back(pv[k] + " = " + cv[k]);
    if (c < m) parts.push_back(pv[c] + " < " + cv[c]);
    parts.push_back(text_.access(acc, P, pv, ev));
    parts.push_back(text_.access(C.accesses[ap.ca], C, cv, ev));
    dims = pv;
    dims.insert(dims.end(), cv.begin(), cv.end());
    if (element) {
      dims.insert(dims.end(), ev.begin(), ev.end());
      return join(parts, " and ");
    }
    return ev.empty() ? join(parts, " and ") : "exists (" + join(ev) + " : " + join(parts, " and ") + ")";
  }

  // The number of instances of a statement in the iteration box of the largest trips.
  std::uint64_t instances(const Statement& s) const {
    std::uint64_t n = 1;
    for (auto l : s.loops) {
      n *= k_.loops[l].max_trip;
      if (n > (std::uint64_t{1} << 32)) return n;
    }
    return n;
  }

  void statement_pair(std::size_t ps, std::size_t cs, const std::vector<AccessPair>& aps) {
    // Small iteration boxes are enumerated (exact, the same answers: the differential test holds
    // the two to each other); larger ones go to ISL.
    const auto np = instances(k_.statements[ps]), nc = instances(k_.statements[cs]);
    if (!o_.force_isl && np * nc <= o_.max_enumerated_pairs) return concrete_pair(ps, cs, aps);
    isl_pair(ps, cs, aps);
  }

  void isl_pair(std::size_t ps, std::size_t cs, const std::vector<AccessPair>& aps) {
    const auto& P = k_.statements[ps];
    const auto& C = k_.statements[cs];
    const auto common = k_.common_loops(P, C);
    const auto m = common.size();
    std::vector<std::string> all_parts;  // every level's conflicts, for the over-synchronization
    std::vector<DerivedDependency> made;
    for (std::size_t c = 0; c <= m; ++c) {
      if (c == m && P.position >= C.position) continue;  // the same iteration: program order decides
      // The union over access pairs, over (producer iteration, consumer iteration).
      std::vector<std::string> parts, dims;
      std::vector<std::size_t> live;  // access pairs that conflict at this level
      for (std::size_t i = 0; i < aps.size(); ++i) {
        const auto body = pair_set_body(ps, cs, aps[i], c, false, dims);
        const auto set = "{ [" + join(dims) + "] : " + body + " }";
        const auto e = isl_.empty(set);
        if (e == Decided::Unknown) {
          out_.undecided.push_back(P.name + " -> " + C.name + ": " + isl_.last_error());
          continue;
        }
        if (e == Decided::No) {
          parts.push_back(body);
          live.push_back(i);
        }
      }
      if (live.empty()) continue;
      all_parts.insert(all_parts.end(), parts.begin(), parts.end());
      std::string conflicts = "{ ";
      for (std::size_t i = 0; i < parts.size(); ++i) conflicts += (i ? "; [" : "[") + join(dims) + "] : " + parts[i];
      conflicts += " }";
      DerivedDependency dd;
      dd.dep.producer = P.name;
      dd.dep.consumer = C.name;
      dd.carried_by = c < m ? k_.loops[common[c]].name : "";
      if (!choose_distance(ps, cs, c, m, common, parts, conflicts, dd)) continue;
      for (auto i : live) dd.why.push_back(justify(ps, cs, aps[i], c));
      made.push_back(std::move(dd));
    }
    for (auto& dd : made) {
      over_synchronization(ps, cs, common, all_parts, dd);
      out_.deps.push_back(std::move(dd));
    }
  }

  // ---- the enumerated path: the same questions over the instances of the largest trips ----

  std::vector<std::vector<std::int64_t>> box_instances(const Statement& s) const {
    std::vector<std::vector<std::int64_t>> out;
    std::vector<std::int64_t> v(s.loops.size(), 0);
    for (auto l : s.loops)
      if (k_.loops[l].max_trip == 0) return out;
    for (;;) {
      out.push_back(v);
      std::size_t i = v.size();
      while (i > 0 && v[i - 1] + 1 == static_cast<std::int64_t>(k_.loops[s.loops[i - 1]].max_trip)) v[--i] = 0;
      if (i == 0) return out;
      ++v[i - 1];
    }
  }

  void concrete_pair(std::size_t ps, std::size_t cs, const std::vector<AccessPair>& aps) {
    const auto& P = k_.statements[ps];
    const auto& C = k_.statements[cs];
    const auto common = k_.common_loops(P, C);
    const auto m = common.size();
    const auto pi = box_instances(P), ci = box_instances(C);
    // What each access touches at each instance, computed once.
    std::vector<std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>>> pt(P.accesses.size()),
        ct(C.accesses.size());
    for (const auto& ap : aps) {
      if (pt[ap.pa].empty())
        for (const auto& v : pi) pt[ap.pa].push_back(elements_at(k_, P, P.accesses[ap.pa], v));
      if (ct[ap.ca].empty())
        for (const auto& v : ci) ct[ap.ca].push_back(elements_at(k_, C, C.accesses[ap.ca], v));
    }
    struct Level {
      std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (producer instance, consumer instance)
      std::vector<std::optional<std::tuple<std::size_t, std::size_t, std::vector<std::int64_t>>>> witness;  // per access pair
    };
    std::vector<Level> levels(m + 1);
    for (auto& l : levels) l.witness.resize(aps.size());
    // Per consumer instance, the latest conflicting producer instance (for the over-synchronization).
    std::vector<std::optional<std::size_t>> latest(ci.size());
    for (std::size_t a = 0; a < pi.size(); ++a)
      for (std::size_t b = 0; b < ci.size(); ++b) {
        // The level: the first common loop where they differ, the producer's iteration earlier.
        std::size_t c = 0;
        while (c < m && pi[a][c] == ci[b][c]) ++c;
        if (c < m && pi[a][c] > ci[b][c]) continue;
        if (c == m && P.position >= C.position) continue;
        bool any = false;
        for (std::size_t x = 0; x < aps.size(); ++x) {
          const auto& ta = pt[aps[x].pa][a];
          const auto& tb = ct[aps[x].ca][b];
          bool meet = true;
          std::vector<std::int64_t> el;
          for (std::size_t d = 0; d < ta.size() && meet; ++d) {
            const auto lo = std::max(ta[d].first, tb[d].first), hi = std::min(ta[d].second, tb[d].second);
            meet = lo < hi;
            el.push_back(lo);
          }
          if (!meet) continue;
          any = true;
          if (!levels[c].witness[x]) levels[c].witness[x] = std::make_tuple(a, b, el);
        }
        if (!any) continue;
        levels[c].pairs.emplace_back(a, b);
        latest[b] = a;  // producer instances come in program order
      }
    const auto it_text = [&](const Statement& s, const std::vector<std::int64_t>& v) {
      std::vector<std::string> parts;
      for (std::size_t i = 0; i < s.loops.size(); ++i) parts.push_back(k_.loops[s.loops[i]].name + "=" + std::to_string(v[i]));
      return "(" + join(parts) + ")";
    };
    for (std::size_t c = 0; c <= m; ++c) {
      auto& L = levels[c];
      if (L.pairs.empty()) continue;
      DerivedDependency dd;
      dd.dep.producer = P.name;
      dd.dep.consumer = C.name;
      dd.carried_by = c < m ? k_.loops[common[c]].name : "";
      std::vector<std::int64_t> d(m, 0);
      std::size_t w = m;  // the first starred position
      if (c < m) {
        std::vector<std::int64_t> lo, hi, mins(m, INT64_MAX);
        for (const auto& [a, b] : L.pairs) {
          std::vector<std::int64_t> delta(m);
          for (std::size_t k = 0; k < m; ++k) {
            delta[k] = ci[b][k] - pi[a][k];
            mins[k] = std::min(mins[k], delta[k]);
          }
          if (lo.empty() || delta < lo) lo = delta;
          if (hi.empty() || delta > hi) hi = delta;
        }
        dd.uniform = lo == hi;
        const auto covers = [&](const std::vector<std::int64_t>& cand) {
          for (auto x : cand)
            if (x < 0) return false;
          for (const auto& [a, b] : L.pairs) {
            std::vector<std::int64_t> t(m);
            for (std::size_t k = 0; k < m; ++k) {
              t[k] = ci[b][k] - cand[k];
              if (t[k] < 0) return false;
            }
            if (std::lexicographical_compare(t.begin(), t.end(), pi[a].begin(), pi[a].begin() + static_cast<std::ptrdiff_t>(m)))
              return false;  // the producer's prefix lies after the target
          }
          return true;
        };
        if (covers(lo)) d = lo;
        else if (covers(mins)) d = mins;
        else {
          d.assign(m, 0);
          d[c] = mins[c];
          w = c + 1;
          dd.uniform = false;
        }
        for (std::size_t k = 0; k < w; ++k)
          if (d[k] > 0) dd.dep.distance[k_.loops[common[k]].name] = static_cast<std::uint32_t>(d[k]);
        for (std::size_t k = w; k < m; ++k) dd.dep.every.insert(k_.loops[common[k]].name);
        if (!dd.uniform)
          dd.distances = "from " + vec_text(lo) + " to " + vec_text(hi) + (w < m ? ", with a negative inner component" : "");
      }
      for (std::size_t x = 0; x < aps.size(); ++x) {
        if (!L.witness[x]) continue;
        const auto& [a, b, el] = *L.witness[x];
        Justification j;
        j.hazard = aps[x].hazard;
        const auto& pa = P.accesses[aps[x].pa];
        const auto& ca = C.accesses[aps[x].ca];
        j.producer_access = std::string(model::to_string(pa.kind)) + " " + pa.access.to_string();
        j.consumer_access = std::string(model::to_string(ca.kind)) + " " + ca.access.to_string();
        j.producer_at = it_text(P, pi[a]);
        j.consumer_at = it_text(C, ci[b]);
        std::vector<std::string> e;
        for (auto v : el) e.push_back(std::to_string(v));
        j.element = pa.access.buffer + "[" + join(e) + "]";
        dd.why.push_back(std::move(j));
      }
      // Over-synchronization: the last producer instance owed against the latest one needed.
      for (std::size_t b = 0; b < ci.size(); ++b) {
        std::vector<std::int64_t> t(w);
        bool under = false;
        for (std::size_t k = 0; k < w; ++k) {
          t[k] = ci[b][k] - d[k];
          under = under || t[k] < 0;
        }
        if (under) continue;
        std::optional<std::size_t> owed;
        for (std::size_t a = 0; a < pi.size(); ++a) {
          if (std::lexicographical_compare(t.begin(), t.end(), pi[a].begin(), pi[a].begin() + static_cast<std::ptrdiff_t>(w)))
            break;
          owed = a;
        }
        if (owed && (!latest[b] || *owed > *latest[b])) {
          // The least such owed instance: the one after the latest needed (or the first).
          const std::size_t q = latest[b] ? *latest[b] + 1 : 0;
          dd.over_synchronizes = "the cumulative wait owes more than the conflicts need: " + C.name + " " +
                                 it_text(C, ci[b]) + " waits for " + P.name + " " + it_text(P, pi[q]) +
                                 ", which no conflict needs";
          break;
        }
      }
      out_.deps.push_back(std::move(dd));
    }
  }

  // Does the dependency make some consumer instance wait for a producer instance that no
  // conflict of the two needs (none at or after it in program order)? Exact, on ISL: the owed
  // pairs (q, c) less those with a conflicting (p, c), p at or after q. The first such pair is
  // the witness.
  void over_synchronization(std::size_t ps, std::size_t cs, const std::vector<std::size_t>& common,
                            const std::vector<std::string>& all_parts, DerivedDependency& dd) {
    const auto& P = k_.statements[ps];
    const auto& C = k_.statements[cs];
    const auto m = common.size();
    const auto pv = text_.vars(P, "p"), cv = text_.vars(C, "c"), qv = text_.vars(P, "q");
    std::size_t w = m;
    std::vector<std::int64_t> d(m, 0);
    for (std::size_t k = 0; k < m; ++k) {
      const auto& name = k_.loops[common[k]].name;
      if (dd.dep.every.count(name) && w == m) w = k;
      if (const auto it = dd.dep.distance.find(name); it != dd.dep.distance.end()) d[k] = it->second;
    }
    const auto lex_le = [&](const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t n) {
      std::vector<std::string> alts;
      for (std::size_t k = 0; k <= n; ++k) {
        std::vector<std::string> conj;
        for (std::size_t q = 0; q < k; ++q) conj.push_back(a[q] + " = " + b[q]);
        if (k < n) conj.push_back(a[k] + " < " + b[k]);
        alts.push_back("(" + (conj.empty() ? std::string("1 = 1") : join(conj, " and ")) + ")");
      }
      return "(" + join(alts, " or ") + ")";
    };
    std::vector<std::string> target;
    for (std::size_t k = 0; k < w; ++k) target.push_back("(" + cv[k] + " - " + std::to_string(d[k]) + ")");
    std::vector<std::string> owed{text_.domain(P, qv), text_.domain(C, cv)};
    for (std::size_t k = 0; k < w; ++k) owed.push_back(target[k] + " >= 0");
    owed.push_back(lex_le(qv, target, w));
    std::vector<std::string> dims = qv;
    dims.insert(dims.end(), cv.begin(), cv.end());
    const std::string head = "[" + join(dims) + "] : ";
    const std::string owed_set = "{ " + head + join(owed, " and ") + " }";
    // Needed: some conflict (p, c) with q at or before p.
    std::string needed = "{ ";
    for (std::size_t i = 0; i < all_parts.size(); ++i) {
      const auto body = "(" + all_parts[i] + ") and " + lex_le(qv, pv, pv.size());
      needed += (i ? "; " : "") + head + (pv.empty() ? body : "exists (" + join(pv) + " : " + body + ")");
    }
    needed += " }";
    const auto sub = isl_.subset(owed_set, needed);
    if (sub == Decided::Unknown) {
      dd.over_synchronizes = "not decided (" + isl_.last_error() + ")";
      return;
    }
    if (sub == Decided::Yes) return;
    // A witness: the least owed pair no conflict needs, by sampling the difference.
    std::string at;
    if (const auto pt = isl_.lexmin_outside(owed_set, needed)) {
      std::vector<std::string> q, c;
      for (std::size_t i = 0; i < P.loops.size(); ++i) q.push_back(k_.loops[P.loops[i]].name + "=" + std::to_string((*pt)[i]));
      for (std::size_t i = 0; i < C.loops.size(); ++i)
        c.push_back(k_.loops[C.loops[i]].name + "=" + std::to_string((*pt)[P.loops.size() + i]));
      at = ": " + C.name + " (" + join(c) + ") waits for " + P.name + " (" + join(q) + "), which no conflict needs";
    }
    dd.over_synchronizes = "the cumulative wait owes more than the conflicts need" + at;
  }

  // The distance set over the common loops, as ISL text.
  std::string distances(std::size_t ps, std::size_t cs, std::size_t m, const std::vector<std::string>& parts,
                        const std::vector<std::string>& dims) const {
    const auto& P = k_.statements[ps];
    const auto pv = text_.vars(P, "p"), cv = text_.vars(k_.statements[cs], "c");
    std::vector<std::string> dv;
    for (std::size_t k = 0; k < m; ++k) dv.push_back("d" + std::to_string(k));
    std::string out = "{ ";
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string defs;
      for (std::size_t k = 0; k < m; ++k) defs += " and d" + std::to_string(k) + " = " + cv[k] + " - " + pv[k];
      out += (i ? "; [" : "[") + join(dv) + "] : exists (" + join(dims) + " : " + parts[i] + defs + ")";
    }
    return out + " }";
  }

  // Does numeric distance `d` (over the m common loops) order every conflict of `conflicts`?
  Decided covers(std::size_t ps, std::size_t cs, std::size_t m, const std::vector<std::int64_t>& d,
                 const std::string& conflicts, const std::vector<std::string>& dims) {
    const auto pv = text_.vars(k_.statements[ps], "p"), cv = text_.vars(k_.statements[cs], "c");
    std::vector<std::string> parts;
    for (std::size_t k = 0; k < m; ++k) parts.push_back(cv[k] + " - " + std::to_string(d[k]) + " >= 0");
    // p ⪯ c - d over the common loops (eq. (1): the consumer owes every instance up to its target).
    std::vector<std::string> lex;
    for (std::size_t k = 0; k <= m; ++k) {
      std::vector<std::string> conj;
      for (std::size_t q = 0; q < k; ++q) conj.push_back(pv[q] + " = " + cv[q] + " - " + std::to_string(d[q]));
      if (k < m) conj.push_back(pv[k] + " < " + cv[k] + " - " + std::to_string(d[k]));
      lex.push_back("(" + (conj.empty() ? std::string("1 = 1") : join(conj, " and ")) + ")");
    }
    parts.push_back("(" + join(lex, " or ") + ")");
    const auto cov = "{ [" + join(dims) + "] : " + join(parts, " and ") + " }";
    return isl_.subset(conflicts, cov);
  }

  bool choose_distance(std::size_t ps, std::size_t cs, std::size_t c, std::size_t m, const std::vector<std::size_t>& common,
                       const std::vector<std::string>& parts, const std::string& conflicts, DerivedDependency& dd) {
    const auto& P = k_.statements[ps];
    const auto& C = k_.statements[cs];
    std::vector<std::string> dims = text_.vars(P, "p");
    const auto cv = text_.vars(C, "c");
    dims.insert(dims.end(), cv.begin(), cv.end());
    if (c == m) return true;  // the same iteration: distance 0 orders every such conflict
    const auto delta = distances(ps, cs, m, parts, dims);
    const auto lo = isl_.lexmin(delta);
    const auto hi = isl_.lexmax(delta);
    const auto mins = isl_.dim_min(delta);
    if (!lo || !hi || !mins) {
      out_.undecided.push_back(P.name + " -> " + C.name + ": " + isl_.last_error());
      return false;
    }
    dd.uniform = *lo == *hi;
    const auto nonneg = [](const std::vector<std::int64_t>& v) {
      return std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x >= 0; });
    };
    std::optional<std::vector<std::int64_t>> chosen;
    for (const auto* cand : {&*lo, &*mins}) {
      if (!nonneg(*cand) || chosen) continue;
      const auto ok = covers(ps, cs, m, *cand, conflicts, dims);
      if (ok == Decided::Unknown) out_.undecided.push_back(P.name + " -> " + C.name + ": " + isl_.last_error());
      if (ok == Decided::Yes) chosen = *cand;
    }
    if (chosen) {
      for (std::size_t k = 0; k < m; ++k)
        if ((*chosen)[k] > 0) dd.dep.distance[k_.loops[common[k]].name] = static_cast<std::uint32_t>((*chosen)[k]);
      if (!dd.uniform) dd.distances = "from " + vec_text(*lo) + " to " + vec_text(*hi);
      return true;
    }
    // No numeric distance orders them all (an inner loop restarts between producer and
    // consumer): the whole iterations of the loops below the carrying one (docs/semantics.md §2).
    dd.dep.distance[k_.loops[common[c]].name] = static_cast<std::uint32_t>((*mins)[c]);
    for (std::size_t k = c + 1; k < m; ++k) dd.dep.every.insert(k_.loops[common[k]].name);
    dd.uniform = false;
    dd.distances = "from " + vec_text(*lo) + " to " + vec_text(*hi) + ", with a negative inner component";
    return true;
  }

  Justification justify(std::size_t ps, std::size_t cs, const AccessPair& ap, std::size_t c) {
    const auto& P = k_.statements[ps];
    const auto& C = k_.statements[cs];
    Justification j;
    j.hazard = ap.hazard;
    const auto& pa = P.accesses[ap.pa];
    const auto& ca = C.accesses[ap.ca];
    j.producer_access = std::string(model::to_string(pa.kind)) + " " + pa.access.to_string();
    j.consumer_access = std::string(model::to_string(ca.kind)) + " " + ca.access.to_string();
    std::vector<std::string> dims;
    const auto body = pair_set_body(ps, cs, ap, c, true, dims);
    // The least witness: the first conflict in lexicographic order of the iterations.
    const auto pt = isl_.lexmin("{ [" + join(dims) + "] : " + body + " }");
    if (!pt) return j;
    const auto at = [&](const Statement& s, std::size_t off) {
      std::vector<std::string> parts;
      for (std::size_t i = 0; i < s.loops.size(); ++i)
        parts.push_back(k_.loops[s.loops[i]].name + "=" + std::to_string((*pt)[off + i]));
      return "(" + join(parts) + ")";
    };
    j.producer_at = at(P, 0);
    j.consumer_at = at(C, P.loops.size());
    std::vector<std::string> el;
    for (std::size_t d = P.loops.size() + C.loops.size(); d < pt->size(); ++d) el.push_back(std::to_string((*pt)[d]));
    j.element = pa.access.buffer + "[" + join(el) + "]";
    return j;
  }

  // A dependency implied by kept ones leaves the graph (implies(), implies_by_chain()); of two
  // that imply each other (equal), the first is kept. Only kept dependencies imply, so no
  // dependency is dropped on the strength of one dropped itself.
  void reduce() {
    auto& ds = out_.deps;
    std::vector<model::Dependency> graph;
    for (const auto& d : ds) graph.push_back(d.dep);
    const ImplicationIndex index(k_, graph);
    std::vector<bool> removed(ds.size(), false);
    for (std::size_t i = 0; i < ds.size(); ++i) {
      auto why = index.implied_by(ds[i].dep, i, &removed);
      if (why.empty()) continue;
      // Equal dependencies imply each other: keep the first of them. (The derivation makes one
      // dependency per pair and carrying loop, one pair's side by side, so equal ones share their
      // ends and follow each other.)
      bool equal_later = false;
      for (std::size_t j = i + 1; j < ds.size() && !equal_later; ++j) {
        if (ds[j].dep.producer != ds[i].dep.producer || ds[j].dep.consumer != ds[i].dep.consumer) break;
        equal_later = !removed[j] && implies(k_, ds[j].dep, ds[i].dep) && implies(k_, ds[i].dep, ds[j].dep) &&
                      why == dependency_text(ds[j].dep);
      }
      if (equal_later) continue;
      ds[i].implied_by = why;
      removed[i] = true;
    }
  }

  // A reason may cite a dependency dropped after it (implication is transitive, so the graph is
  // right); say so, so that the reason reads right.
  void annotate_reasons() {
    auto& ds = out_.deps;
    std::map<std::string, std::string> dropped;
    for (const auto& d : ds)
      if (!d.implied_by.empty()) dropped.emplace(dependency_text(d.dep), d.implied_by);
    for (auto& d : ds)
      if (const auto it = dropped.find(d.implied_by); it != dropped.end())
        d.implied_by += " (itself implied by " + it->second + ")";
  }

  // Where the kernel has few executions (enumerate.h: each loop entry any trip its rule allows),
  // a kept dependency that the rest orders in every one of them is implied for every trip count:
  // dropped, one at a time, each time against what is still kept. This makes the graph minimal
  // for such kernels, where the rules above miss longer chains.
  void reduce_by_executions() {
    if (o_.max_executions == 0) return;
    auto& ds = out_.deps;
    std::size_t kept = 0;
    for (const auto& d : ds) kept += d.implied_by.empty() ? 1 : 0;
    if (kept < 2) return;
    const auto all = all_executions(k_, o_.max_executions, o_.max_instances);
    if (!all) return;
    std::uint64_t work = 0;
    for (const auto& x : *all) work += x.instances.size() + x.conflicts.size();
    if (work * kept > o_.max_reduction_work) return;
    for (std::size_t i = 0; i < ds.size(); ++i) {
      if (!ds[i].implied_by.empty()) continue;
      std::vector<model::Dependency> rest;
      for (std::size_t j = 0; j < ds.size(); ++j)
        if (j != i && ds[j].implied_by.empty()) rest.push_back(ds[j].dep);
      const auto graph = graph_of(k_, rest);
      bool ordered = true;
      for (const auto& x : *all) {
        const auto o = order_conflicts(k_, x, graph);
        if (!o.unordered.empty() || o.deadlock) {
          ordered = false;
          break;
        }
      }
      if (ordered)
        ds[i].implied_by = "the rest of the graph, in every execution (" + std::to_string(all->size()) + " enumerated)";
    }
  }

  const Kernel& k_;
  const DeriveOptions& o_;
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> boxes_;
  detail::Presburger isl_;
  IslText text_;
  Derivation out_;
};

}  // namespace

Derivation derive(const Kernel& k, const DeriveOptions& options) { return Deriver(k, options).run(); }

namespace {
// d's distance is at least `base`'s in every loop (absent entries are 0), with the same stars.
bool all_zero(const model::Dependency& d) {
  return d.every.empty() &&
         std::all_of(d.distance.begin(), d.distance.end(), [](const auto& kv) { return kv.second == 0; });
}
bool prefix_of(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}
}  // namespace

std::optional<model::Dependency> compose(const Kernel& k, const model::Dependency& first,
                                         const model::Dependency& second) {
  if (first.consumer != second.producer) return std::nullopt;
  const auto find = [&](const std::string& n) { return k.by_name.find(n); };
  if (find(first.producer) == k.by_name.end() || find(first.consumer) == k.by_name.end() ||
      find(second.consumer) == k.by_name.end())
    return std::nullopt;
  const auto& A = k.statements[find(first.producer)->second];
  const auto& B = k.statements[find(first.consumer)->second];
  const auto& C = k.statements[find(second.consumer)->second];
  model::Dependency out;
  out.producer = A.name;
  out.consumer = C.name;
  // Rule 1: A -> B in the same iteration, B around A's loops and after A: whatever B -> C owes
  // of B, A's instances in those iterations retired before (stars for A's loops below B's).
  if (all_zero(first) && prefix_of(B.loops, A.loops) && B.position > A.position) {
    const auto bc = k.common_loops(B, C), ac = k.common_loops(A, C);
    for (const auto& [l, v] : second.distance)
      if (v) out.distance[l] = v;
    out.every = second.every;
    for (std::size_t j = bc.size(); j < ac.size(); ++j) out.every.insert(k.loops[ac[j]].name);
    // A distance needs a positive numeric part above its stars (the loader's rule).
    if (!out.every.empty() && out.distance.empty()) return std::nullopt;
    return out;
  }
  // Rule 2: B -> C in the same iteration, B around C's loops and before C, A meeting B and C on
  // the same common loops: C issues after B, which waited for what A -> B owes.
  // Rule 3: A, B and C share the same common loops L pairwise, and B runs in every iteration of L
  // (its loops below L run at least once): one of the two in the same iteration of L, B before C
  // where the second is. Then C owes, through B's last instance up to its target, what the other
  // one owes (sequential nests at the top level chain this way).
  {
    const auto ab3 = k.common_loops(A, B), bc3 = k.common_loops(B, C), ac3 = k.common_loops(A, C);
    bool every_iteration = ab3 == bc3 && bc3 == ac3;
    for (std::size_t i = bc3.size(); i < B.loops.size() && every_iteration; ++i)
      every_iteration = k.loops[B.loops[i]].min_trip > 0;
    if (every_iteration && all_zero(first) && (!all_zero(second) || B.position < C.position)) {
      for (const auto& [l, v] : second.distance)
        if (v) out.distance[l] = v;
      out.every = second.every;
      return out;
    }
    if (every_iteration && all_zero(second) && B.position < C.position) {
      for (const auto& [l, v] : first.distance)
        if (v) out.distance[l] = v;
      out.every = first.every;
      return out;
    }
  }
  // A's common loops with C may go deeper than with B: stars there (whatever A's iterations below).
  const auto ab = k.common_loops(A, B), ac = k.common_loops(A, C);
  if (all_zero(second) && prefix_of(B.loops, C.loops) && B.position < C.position && prefix_of(ab, ac)) {
    for (const auto& [l, v] : first.distance)
      if (v) out.distance[l] = v;
    out.every = first.every;
    for (std::size_t j = ab.size(); j < ac.size(); ++j) out.every.insert(k.loops[ac[j]].name);
    if (!out.every.empty() && out.distance.empty()) return std::nullopt;
    return out;
  }
  return std::nullopt;
}

bool implies_by_chain(const Kernel& k, const model::Dependency& first, const model::Dependency& second,
                      const model::Dependency& d) {
  if (first.producer != d.producer || second.consumer != d.consumer) return false;
  const auto c = compose(k, first, second);
  return c && implies(k, *c, d);
}

ImplicationIndex::ImplicationIndex(const Kernel& k, const std::vector<model::Dependency>& graph) : k_(k), graph_(graph) {
  for (std::size_t i = 0; i < graph.size(); ++i) {
    by_producer_[graph[i].producer].push_back(i);
    by_consumer_[graph[i].consumer].push_back(i);
  }
}

std::string ImplicationIndex::implied_by(const model::Dependency& d, std::size_t skip,
                                         const std::vector<bool>* removed) const {
  const auto usable = [&](std::size_t i) { return i != skip && !(removed && (*removed)[i]); };
  const auto from = by_producer_.find(d.producer);
  if (from == by_producer_.end()) return "";
  // One dependency: the same pair or another producer for this consumer (implies() needs one of
  // the two ends shared), or another consumer of this producer.
  if (const auto same = by_consumer_.find(d.consumer); same != by_consumer_.end())
    for (auto i : same->second)
      if (usable(i) && (implies(k_, graph_[i], d) || implies_across_iteration(k_, graph_[i], d)))
        return dependency_text(graph_[i]);
  for (auto i : from->second)
    if (usable(i) && graph_[i].consumer != d.consumer &&
        (implies(k_, graph_[i], d) || implies_across_iteration(k_, graph_[i], d)))
      return dependency_text(graph_[i]);
  // Two: A -> B, then B -> C.
  const auto to = by_consumer_.find(d.consumer);
  if (to == by_consumer_.end()) return "";
  for (auto i : from->second) {
    if (!usable(i)) continue;
    for (auto j : to->second)
      if (usable(j) && graph_[j].producer == graph_[i].consumer && implies_by_chain(k_, graph_[i], graph_[j], d))
        return dependency_text(graph_[i]) + " then " + dependency_text(graph_[j]);
  }
  return "";
}

std::vector<model::Dependency> chain_closure(const Kernel& k, const std::vector<model::Dependency>& graph,
                                             std::size_t max_added) {
  std::vector<model::Dependency> out = graph;
  // What is known already, by (producer, consumer): only a dependency of the same two ends can
  // imply a composed one (implies()); scanning the whole graph for each was quadratic.
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> of_pair;
  for (std::size_t i = 0; i < out.size(); ++i) of_pair[{out[i].producer, out[i].consumer}].push_back(i);
  std::size_t added = 0;
  for (bool grew = true; grew && added < max_added;) {
    grew = false;
    std::map<std::string, std::vector<std::size_t>> by_producer;
    for (std::size_t i = 0; i < out.size(); ++i) by_producer[out[i].producer].push_back(i);
    const std::size_t n = out.size();
    for (std::size_t i = 0; i < n && added < max_added; ++i) {
      const auto next = by_producer.find(out[i].consumer);
      if (next == by_producer.end()) continue;
      for (auto j : next->second) {
        auto c = compose(k, out[i], out[j]);
        if (!c) continue;
        auto& same = of_pair[{c->producer, c->consumer}];
        if (std::any_of(same.begin(), same.end(), [&](std::size_t x) { return implies(k, out[x], *c); })) continue;
        same.push_back(out.size());
        out.push_back(std::move(*c));
        grew = true;
        if (++added >= max_added) break;
      }
    }
  }
  return out;
}

bool implies(const Kernel& k, const model::Dependency& by, const model::Dependency& d) {
  const auto xs = k.by_name.find(d.producer), ys = k.by_name.find(d.consumer);
  const auto bxs = k.by_name.find(by.producer), bys = k.by_name.find(by.consumer);
  if (xs == k.by_name.end() || ys == k.by_name.end() || bxs == k.by_name.end() || bys == k.by_name.end()) return false;
  const auto& X = k.statements[xs->second];
  const auto& Y = k.statements[ys->second];
  const auto& X2 = k.statements[bxs->second];
  const auto& Y2 = k.statements[bys->second];
  const auto at_most = [&](const model::Dependency& a, const model::Dependency& b) {
    return std::all_of(a.distance.begin(), a.distance.end(), [&](const auto& kv) {
      if (kv.second == 0) return true;
      const auto it = b.distance.find(kv.first);
      return it != b.distance.end() && kv.second <= it->second;
    });
  };
  if (&X2 == &X && &Y2 == &Y) {
    if (by.every == d.every) return at_most(by, d);
    // A numeric `by` against a starred d: with no offset of by's on d's starred loops and by's
    // offsets at most d's, d's target lies strictly before by's on the loops above the stars
    // (d's numeric part is positive there, by's may be zero), so everything d owes by owes too.
    if (!by.every.empty()) return false;
    for (const auto& l : d.every)
      if (const auto it = by.distance.find(l); it != by.distance.end() && it->second > 0) return false;
    if (!at_most(by, d)) return false;
    bool smaller = false;
    for (const auto& [l, v] : d.distance) {
      const auto it = by.distance.find(l);
      smaller = smaller || v > (it == by.distance.end() ? 0u : it->second);
    }
    return smaller;
  }
  if (by.every != d.every) return false;
  const auto nonzero = [](const model::Dependency& x) {
    std::map<std::string, std::uint32_t> out;
    for (const auto& [l, v] : x.distance)
      if (v) out[l] = v;
    return out;
  };
  if (nonzero(by) != nonzero(d)) return false;
  // An instance of `other` in every iteration of `end`'s loops: their loops nest one in the other,
  // and the loops `other` has below `end`'s run at least once.
  const auto alongside = [&](const Statement& end, const Statement& other) {
    if (prefix_of(other.loops, end.loops)) return true;
    if (!prefix_of(end.loops, other.loops)) return false;
    for (std::size_t i = end.loops.size(); i < other.loops.size(); ++i)
      if (k.loops[other.loops[i]].min_trip == 0) return false;
    return true;
  };
  // X2 after X on X's engine: X2 may share more loops with Y than X does, when `by` has no offset
  // on them (X2's first instance after X in those loops is then owed too).
  if (&Y2 == &Y && X2.engine == X.engine && X2.position > X.position && alongside(X, X2)) {
    const auto cx = k.common_loops(X, Y), cx2 = k.common_loops(X2, Y);
    if (cx == cx2) return true;
    if (prefix_of(cx, cx2) && by.every.empty()) {
      bool extra_zero = true;
      for (std::size_t j = cx.size(); j < cx2.size(); ++j) {
        const auto it = by.distance.find(k.loops[cx2[j]].name);
        extra_zero = extra_zero && (it == by.distance.end() || it->second == 0);
      }
      if (extra_zero) return true;
    }
  }
  if (&X2 == &X && Y2.engine == Y.engine && Y2.position < Y.position && alongside(Y, Y2) &&
      k.common_loops(X, Y2) == k.common_loops(X, Y))
    return true;
  return false;
}

namespace {
// In-order issue across an iteration (docs/footprints.md "Reduction"): Y2 follows Y on Y's engine
// in the body of L, their innermost common loop, and runs in every iteration of it; then Y at
// iteration v issues after Y2's instance of L's iteration v_L - 1, which waited for what `by`
// (X -> Y2) owes there. As X -> Y: by's distance plus one at L, stars on X and Y's common loops
// below X and Y2's. Nothing when the shapes do not fit.
std::optional<model::Dependency> across_iteration(const Kernel& k, const model::Dependency& by, const Statement& X,
                                                  const Statement& Y2, const Statement& Y) {
  if (Y2.engine != Y.engine || &Y2 == &Y || Y2.position <= Y.position) return std::nullopt;
  const auto cyy = k.common_loops(Y, Y2);
  if (cyy.empty()) return std::nullopt;
  for (std::size_t i = cyy.size(); i < Y2.loops.size(); ++i)
    if (k.loops[Y2.loops[i]].min_trip == 0) return std::nullopt;
  const auto L = cyy.back();
  const auto cx2 = k.common_loops(X, Y2), cxy = k.common_loops(X, Y);
  if (!prefix_of(cx2, cxy) || std::find(cx2.begin(), cx2.end(), L) == cx2.end()) return std::nullopt;
  const auto& lname = k.loops[L].name;
  if (by.every.count(lname)) return std::nullopt;
  model::Dependency out;
  out.producer = X.name;
  out.consumer = Y.name;
  for (const auto& [l, v] : by.distance)
    if (v) out.distance[l] = v;
  out.distance[lname] += 1;
  out.every = by.every;
  for (std::size_t i = cx2.size(); i < cxy.size(); ++i) out.every.insert(k.loops[cxy[i]].name);
  // Stars only below every numeric entry (the loader's form).
  if (!out.every.empty())
    for (std::size_t i = 0; i < cxy.size(); ++i)
      if (out.every.count(k.loops[cxy[i]].name))
        for (std::size_t j = i; j < cxy.size(); ++j)
          if (out.distance.count(k.loops[cxy[j]].name)) return std::nullopt;
  return out;
}
}  // namespace

// The mirror on the producer's side, for a same-iteration `by` (X2 -> Y): X2 precedes X on X's
// engine in the body of L, their innermost common loop, and runs in every iteration of it; then
// the consumer, owing every X2 instance up to its own iteration, owes the X2 instance after X's
// instance of the iteration before (in the next iteration of L, or the next outer one): X -> Y
// with distance 1 at L is ordered.
std::optional<model::Dependency> after_iteration(const Kernel& k, const model::Dependency& by, const Statement& X2,
                                                 const Statement& X, const Statement& Y) {
  if (X2.engine != X.engine || &X2 == &X || X2.position >= X.position || !all_zero(by)) return std::nullopt;
  const auto cxx = k.common_loops(X, X2);
  if (cxx.empty()) return std::nullopt;
  for (std::size_t i = cxx.size(); i < X2.loops.size(); ++i)
    if (k.loops[X2.loops[i]].min_trip == 0) return std::nullopt;
  const auto cxy = k.common_loops(X, Y);
  if (k.common_loops(X2, Y) != cxy || std::find(cxy.begin(), cxy.end(), cxx.back()) == cxy.end()) return std::nullopt;
  model::Dependency out;
  out.producer = X.name;
  out.consumer = Y.name;
  out.distance[k.loops[cxx.back()].name] = 1;
  return out;
}

bool implies_across_iteration(const Kernel& k, const model::Dependency& by, const model::Dependency& d) {
  const auto find = [&](const std::string& n) { return k.by_name.find(n); };
  const auto xs = find(d.producer), ys = find(d.consumer), bx = find(by.producer), by_ = find(by.consumer);
  if (xs == k.by_name.end() || ys == k.by_name.end() || bx == k.by_name.end() || by_ == k.by_name.end()) return false;
  const auto& X = k.statements[xs->second];
  const auto& Y = k.statements[ys->second];
  std::optional<model::Dependency> c;
  if (by.producer == d.producer) c = across_iteration(k, by, X, k.statements[by_->second], Y);
  else if (by.consumer == d.consumer) c = after_iteration(k, by, k.statements[bx->second], X, Y);
  return c && implies(k, *c, d);
}

}  // namespace syncbisim::footprint
