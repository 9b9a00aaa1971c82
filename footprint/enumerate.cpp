#include "footprint/enumerate.h"

#include <algorithm>
#include <deque>
#include <map>

#include "model/dependency_shape.h"

namespace syncbisim::footprint {

std::string TripPlan::to_string(const Kernel& k) const {
  std::string out;
  for (std::size_t i = 0; i < trip.size() && i < k.loops.size(); ++i)
    out += (out.empty() ? "" : ", ") + k.loops[i].name + "=" + std::to_string(trip[i]);
  return out.empty() ? "(no loop)" : out;
}

std::vector<TripPlan> small_plans(const Kernel& k, std::uint32_t max_trip, std::size_t max_plans) {
  // Per loop: its least trip, the next ones up to max_trip, and its largest if that is small.
  std::vector<std::vector<std::uint32_t>> values(k.loops.size());
  for (std::size_t l = 0; l < k.loops.size(); ++l) {
    const auto& kl = k.loops[l];
    for (std::uint32_t t = kl.min_trip; t <= kl.max_trip && t <= std::max(max_trip, kl.min_trip); ++t) values[l].push_back(t);
    if (values[l].empty()) values[l].push_back(kl.min_trip);
  }
  // The all-largest plan first (the most conflicts), then the product in order, cut at max_plans;
  // a loop at its smallest trips is covered by the plans that follow.
  std::vector<TripPlan> out;
  TripPlan top;
  for (const auto& v : values) top.trip.push_back(v.back());
  out.push_back(top);
  std::vector<std::size_t> at(values.size(), 0);
  while (out.size() < max_plans) {
    TripPlan p;
    for (std::size_t l = 0; l < values.size(); ++l) p.trip.push_back(values[l][at[l]]);
    if (p.trip != top.trip) out.push_back(std::move(p));
    std::size_t l = 0;
    while (l < at.size() && at[l] + 1 == values[l].size()) at[l++] = 0;
    if (l == at.size()) break;
    ++at[l];
  }
  return out;
}

namespace {

struct Box {
  std::vector<std::int64_t> lo, hi;  // half-open per dimension
  bool empty() const {
    for (std::size_t d = 0; d < lo.size(); ++d)
      if (lo[d] >= hi[d]) return true;
    return false;
  }
};

class Enumerator {
 public:
  // `picks`: with a plan of one trip per loop, nothing; else the trip choice of each loop entry
  // in order (an index among the rule's values there), extended with 0 where it runs out, and
  // `options` receives how many values each entry had.
  Enumerator(const Kernel& k, const TripPlan& plan, std::size_t cap, std::vector<std::uint32_t>* picks = nullptr,
             std::vector<std::uint32_t>* options = nullptr)
      : k_(k), plan_(plan), cap_(cap), picks_(picks), options_(options) {}

  std::optional<Execution> run() {
    x_.plan = plan_;
    if (picks_) x_.plan.trip.assign(k_.loops.size(), 0);
    engine_count_.assign(k_.engines.size(), 0);
    entries_.assign(k_.loops.size(), 0);
    if (options_) options_->clear();
    std::vector<std::int64_t> iter;
    if (!gen(0, 0, k_.statements.size(), iter)) return std::nullopt;
    if (!count_only_) conflicts();
    return std::move(x_);
  }
  // Instances only, no conflicts (counting the executions first).
  void count_only() { count_only_ = true; }

 private:
  bool gen(std::size_t level, std::size_t a, std::size_t b, std::vector<std::int64_t>& iter) {
    for (std::size_t s = a; s < b;) {
      const auto& st = k_.statements[s];
      if (st.loops.size() == level) {
        if (x_.instances.size() >= cap_) return false;
        x_.instances.push_back(Instance{s, iter, engine_count_[st.engine]++});
        ++s;
        continue;
      }
      const auto loop = st.loops[level];
      std::size_t e = s;
      while (e < b && k_.statements[e].loops.size() > level && k_.statements[e].loops[level] == loop) ++e;
      const std::uint32_t trip = picks_ ? pick(loop) : plan_.trip[loop];
      for (std::uint32_t it = 0; it < trip; ++it) {
        iter.push_back(it);
        if (!gen(level + 1, s, e, iter)) return false;
        iter.pop_back();
      }
      s = e;
    }
    return true;
  }

  // The trip of this entry of `loop` under the picks (docs/semantics.md §1: a range any value
  // when the trip starts, a sequence its k-th value).
  std::uint32_t pick(std::size_t loop) {
    const auto& rule = k_.loops[loop].rule;
    const auto k = entries_[loop]++;
    const auto n = model::choice_count(rule, k);
    const auto at = options_->size();
    options_->push_back(static_cast<std::uint32_t>(std::min<std::uint64_t>(n, UINT32_MAX)));
    if (at >= picks_->size()) picks_->push_back(0);
    const auto trip = model::choice_at(rule, k, std::min<std::uint64_t>((*picks_)[at], n - 1));
    x_.plan.trip[loop] = std::max(x_.plan.trip[loop], trip);
    return trip;
  }

  Box box_of(const Instance& in, const KernelAccess& a) const {
    Box b;
    for (const auto& [lo, hi] : elements_at(k_, k_.statements[in.statement], a, in.iter)) {
      b.lo.push_back(lo);
      b.hi.push_back(hi);
    }
    return b;
  }

  void conflicts() {
    struct Touch {
      std::size_t instance, access;
      Box box;
    };
    std::map<std::string, std::vector<Touch>> by_buffer;
    for (std::size_t i = 0; i < x_.instances.size(); ++i) {
      const auto& st = k_.statements[x_.instances[i].statement];
      for (std::size_t a = 0; a < st.accesses.size(); ++a) {
        auto b = box_of(x_.instances[i], st.accesses[a]);
        if (!b.empty()) by_buffer[st.accesses[a].access.buffer].push_back(Touch{i, a, std::move(b)});
      }
    }
    for (const auto& [buffer, touches] : by_buffer)
      for (std::size_t u = 0; u < touches.size(); ++u)
        for (std::size_t v = u + 1; v < touches.size(); ++v) {
          const auto& t1 = touches[u];
          const auto& t2 = touches[v];
          if (t1.instance == t2.instance) continue;  // an instance never conflicts with itself
          const auto& a1 = k_.statements[x_.instances[t1.instance].statement].accesses[t1.access];
          const auto& a2 = k_.statements[x_.instances[t2.instance].statement].accesses[t2.access];
          const auto h = hazard_between(a1.kind, a2.kind);  // t1 is earlier: touches are in program order
          if (!h) continue;
          Conflict c{t1.instance, t2.instance, t1.access, t2.access, *h, {}};
          bool meet = true;
          for (std::size_t d = 0; d < t1.box.lo.size() && meet; ++d) {
            const auto lo = std::max(t1.box.lo[d], t2.box.lo[d]);
            const auto hi = std::min(t1.box.hi[d], t2.box.hi[d]);
            meet = lo < hi;
            c.element.push_back(lo);
          }
          if (meet) x_.conflicts.push_back(std::move(c));
        }
    std::sort(x_.conflicts.begin(), x_.conflicts.end(), [](const Conflict& a, const Conflict& b) {
      return std::tie(a.later, a.earlier, a.later_access, a.earlier_access) <
             std::tie(b.later, b.earlier, b.later_access, b.earlier_access);
    });
  }

  const Kernel& k_;
  const TripPlan& plan_;
  std::size_t cap_;
  std::vector<std::uint32_t>* picks_;
  std::vector<std::uint32_t>* options_;
  bool count_only_ = false;
  Execution x_;
  std::vector<std::size_t> engine_count_;
  std::vector<std::uint64_t> entries_;
};

}  // namespace

std::optional<Execution> enumerate(const Kernel& k, const TripPlan& plan, std::size_t max_instances) {
  return Enumerator(k, plan, max_instances).run();
}

std::optional<std::vector<Execution>> all_executions(const Kernel& k, std::size_t max_executions,
                                                     std::size_t max_instances) {
  // An odometer over the entries' choices: run with the picks, then advance the last entry that
  // has another value and drop the picks after it (later entries depend on earlier choices).
  // Counted first, without conflicts (their cost is quadratic in an execution's instances), so
  // that a kernel with too many executions costs only their count.
  std::vector<Execution> out;
  std::vector<std::uint32_t> picks, options;
  const TripPlan none;
  for (const bool counting : {true, false}) {
    picks.clear();
    std::size_t n = 0;
    for (;;) {
      if (n >= max_executions) return std::nullopt;
      Enumerator e(k, none, max_instances, &picks, &options);
      if (counting) e.count_only();
      auto x = e.run();
      if (!x) return std::nullopt;
      ++n;
      if (!counting) out.push_back(std::move(*x));
      picks.resize(options.size());
      std::size_t i = picks.size();
      while (i > 0 && picks[i - 1] + 1 >= options[i - 1]) --i;
      if (i == 0) break;
      ++picks[i - 1];
      picks.resize(i);
    }
  }
  return out;
}

std::vector<GraphDependency> graph_of(const Kernel& k, const std::vector<model::Dependency>& deps) {
  std::vector<GraphDependency> out;
  for (const auto& d : deps) {
    const auto p = k.by_name.find(d.producer), c = k.by_name.find(d.consumer);
    if (p == k.by_name.end() || c == k.by_name.end()) continue;
    GraphDependency g;
    g.producer = p->second;
    g.consumer = c->second;
    const auto common = k.common_loops(k.statements[g.producer], k.statements[g.consumer]);
    g.whole_from = common.size();
    for (std::size_t j = 0; j < common.size(); ++j) {
      const auto& name = k.loops[common[j]].name;
      const auto it = d.distance.find(name);
      g.distance.push_back(it == d.distance.end() ? 0 : it->second);
      if (d.every.count(name) && g.whole_from == common.size()) g.whole_from = j;
    }
    out.push_back(std::move(g));
  }
  return out;
}

Ordering order_conflicts(const Kernel& k, const Execution& x, const std::vector<GraphDependency>& graph) {
  const std::size_t n = x.instances.size(), engines = k.engines.size();
  // Events: 2i is instance i's issue, 2i+1 its retirement. Edges: issue -> retire; per engine
  // issue -> next issue and retire -> next retire (in-order, pipelined); a dependency's last
  // owed producer instance's retire -> the consumer's issue (docs/semantics.md §2, eq. (1)).
  std::vector<std::vector<std::size_t>> out(2 * n);
  std::vector<std::size_t> indegree(2 * n, 0);
  const auto edge = [&](std::size_t a, std::size_t b) {
    out[a].push_back(b);
    ++indegree[b];
  };
  std::vector<std::vector<std::size_t>> of_statement(k.statements.size());
  std::vector<std::size_t> last_on_engine(engines, SIZE_MAX);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& in = x.instances[i];
    of_statement[in.statement].push_back(i);
    edge(2 * i, 2 * i + 1);
    const auto e = k.statements[in.statement].engine;
    if (last_on_engine[e] != SIZE_MAX) {
      edge(2 * last_on_engine[e], 2 * i);
      edge(2 * last_on_engine[e] + 1, 2 * i + 1);
    }
    last_on_engine[e] = i;
  }
  for (const auto& g : graph) {
    const auto& producers = of_statement[g.producer];
    for (auto c : of_statement[g.consumer]) {
      const auto& v = x.instances[c].iter;
      // Target t = v - d over the numeric prefix; a negative component owes nothing.
      std::vector<std::int64_t> t;
      bool underflow = false;
      for (std::size_t j = 0; j < g.whole_from; ++j) {
        t.push_back(v[j] - static_cast<std::int64_t>(g.distance[j]));
        underflow = underflow || t.back() < 0;
      }
      if (underflow) continue;
      // Owed: producer instances whose prefix is at most t (a prefix of their program order).
      std::size_t owed = 0;
      while (owed < producers.size()) {
        const auto& u = x.instances[producers[owed]].iter;
        if (!std::lexicographical_compare(t.begin(), t.end(), u.begin(), u.begin() + static_cast<std::ptrdiff_t>(t.size())))
          ++owed;  // u's prefix <= t
        else
          break;
      }
      if (owed > 0) edge(2 * producers[owed - 1] + 1, 2 * c);
    }
  }
  // Topological order (Kahn) with, per event, the latest engine position retired before it.
  std::vector<std::vector<std::int64_t>> retired(2 * n, std::vector<std::int64_t>(engines, -1));
  std::deque<std::size_t> ready;
  for (std::size_t ev = 0; ev < 2 * n; ++ev)
    if (indegree[ev] == 0) ready.push_back(ev);
  std::size_t seen = 0;
  while (!ready.empty()) {
    const auto ev = ready.front();
    ready.pop_front();
    ++seen;
    if (ev % 2 == 1) {
      const auto& in = x.instances[ev / 2];
      auto& r = retired[ev][k.statements[in.statement].engine];
      r = std::max<std::int64_t>(r, static_cast<std::int64_t>(in.engine_position));
    }
    for (auto next : out[ev]) {
      for (std::size_t e = 0; e < engines; ++e) retired[next][e] = std::max(retired[next][e], retired[ev][e]);
      if (--indegree[next] == 0) ready.push_back(next);
    }
  }
  Ordering o;
  o.deadlock = seen < 2 * n;
  for (std::size_t ci = 0; ci < x.conflicts.size(); ++ci) {
    const auto& c = x.conflicts[ci];
    const auto& a = x.instances[c.earlier];
    const auto e = k.statements[a.statement].engine;
    if (retired[2 * c.later][e] < static_cast<std::int64_t>(a.engine_position)) o.unordered.push_back(ci);
  }
  return o;
}

std::string iteration_text(const Kernel& k, const Instance& in) {
  const auto& st = k.statements[in.statement];
  std::string out;
  for (std::size_t i = 0; i < st.loops.size(); ++i)
    out += (i ? ", " : "") + k.loops[st.loops[i]].name + "=" + std::to_string(in.iter[i]);
  return "(" + out + ")";
}

std::string describe(const Kernel& k, const Execution& x, const Conflict& c) {
  const auto side = [&](std::size_t inst, std::size_t acc) {
    const auto& in = x.instances[inst];
    const auto& st = k.statements[in.statement];
    const auto& a = st.accesses[acc];
    return st.name + " " + iteration_text(k, in) + " " + model::to_string(a.kind) + " " + a.access.to_string();
  };
  std::string elem;
  const auto& buf = k.statements[x.instances[c.earlier].statement].accesses[c.earlier_access].access.buffer;
  for (std::size_t d = 0; d < c.element.size(); ++d) elem += (d ? ", " : "") + std::to_string(c.element[d]);
  return std::string(to_string(c.hazard)) + " on " + buf + "[" + elem + "]: " + side(c.earlier, c.earlier_access) +
         ", then " + side(c.later, c.later_access);
}

}  // namespace syncbisim::footprint
