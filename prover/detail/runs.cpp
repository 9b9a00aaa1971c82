// Straight-line runs of signals (docs/prover.md "Complexity"). A semaphore's value is the sum of
// its signals' retirements; on one long block every instruction may signal it, and naming each
// one's R made each consumer's query as long as the block. An engine retires in issue order
// (docs/semantics.md §3), so the R of the instructions of one block stream of one engine never
// increase along the stream and differ by at most one (its frontier lies in at most one
// iteration of the block): for a run of L signals of s lying strictly between instructions B and
// A of the stream, none of them named by another fact, every R of the run lies between R(A) and
// R(B), and the run's sum is every value from L·R(A) to L·R(B) and nothing else (R(B) <= R(A) + 1,
// and a step pattern of L values). One term M with L·R(A) <= M <= L·R(B) says exactly that. The
// run's members are found by the positions of the named instructions among the stream's
// signals, which are sorted once per program, so a consumer's query costs its named
// instructions, not the block's length.
#include <algorithm>
#include <set>

#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

namespace {

// A run of fewer signals stays as its signals' own terms.
constexpr std::size_t kMinRun = 2;

ProgramTables::StreamKey stream_of(const InstrPlace& p) { return {p.at.loop, p.at.stmt, p.engine}; }

}  // namespace

std::shared_ptr<const ProgramTables> ProgramTables::build(const Places& impl, const model::ProgramIndex& spec_ix,
                                                          const analysis::DependencyAnalysis& analysis) {
  auto t = std::make_shared<ProgramTables>();
  const auto& ix = impl.index();
  // Control (was Encoder::init_control, per consumer).
  std::vector<std::uint8_t> divergent_loop(ix.loops.size(), 0);  // some loop from l up has a per-engine rule
  for (model::LoopId l = 1; l < ix.loops.size(); ++l) {
    for (auto a = l; a != model::kTop; a = ix.loops[a].parent)
      if (const auto sl = spec_ix.loop(ix.loops[a].name);
          sl && spec_ix.loops[*sl].trip && spec_ix.loops[*sl].trip->divergent) {
        divergent_loop[l] = 1;
        break;
      }
    t->divergent = t->divergent || divergent_loop[l];
  }
  t->shared.resize(ix.instrs.size());
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i) t->shared[i] = !divergent_loop[impl.instr(i).at.loop];
  for (const auto& b : impl.barriers()) t->barriers_shared = t->barriers_shared && !divergent_loop[b.at.loop];
  // Dependencies.
  t->deps_by_consumer.resize(ix.instrs.size());
  for (const auto& d : analysis.deps) {
    t->deps_of[spec_ix.instrs[d.consumer].name].push_back(&d);
    const auto q = ix.instr(spec_ix.instrs[d.consumer].name);
    const auto p = ix.instr(spec_ix.instrs[d.producer].name);
    if (!q || !p) continue;
    DepRef r{*p, *q, d.offset, false};
    bool above = false;
    for (std::size_t i = 0; i + 1 < d.distance.size(); ++i) above = above || d.distance[i] != 0;
    r.causal = d.P == d.S && spec_ix.loops[d.S].name == ix.loops[impl.instr(*q).at.loop].name && !above &&
               !(d.offset > 0 && spec_ix.loops[d.S].parent != model::kTop);
    t->deps_by_consumer[*q].push_back(t->deps.size());
    t->deps.push_back(r);
  }
  // Semaphores: signals by stream (instruction ids are in program order, and within one stream
  // in stream order).
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
    const auto& s = impl.instr(i).signal;
    if (!s) continue;
    auto& sem = t->semaphores[s->sem];
    if (sem.signals.empty()) sem.add = s->add;
    else if (sem.add && *sem.add != s->add) sem.add.reset();
    sem.signals.push_back(i);
    sem.by_stream[stream_of(impl.instr(i))].push_back(i);
    auto& by_engine = t->signals_by_engine[{s->sem, impl.instr(i).engine}];
    by_engine.ids.push_back(i);
    by_engine.tops.push_back(impl.stmt_in(model::kTop, impl.instr(i).at));
  }
  for (auto& [name, sem] : t->semaphores) {
    for (auto& [key, v] : sem.by_stream)
      std::sort(v.begin(), v.end(),
                [&](model::InstrId a, model::InstrId b) { return impl.instr(a).at.item < impl.instr(b).at.item; });
    for (const auto& b : impl.barriers()) {
      if (!b.reset) sem.ever_reset = true;
      else
        for (const auto& r : *b.reset) sem.ever_reset = sem.ever_reset || r == name;
    }
  }
  // Pinned signals: a causality fact may relate them to another signal of the semaphore, or to
  // the consumer's engine; they keep their own terms (see Encoder::signal_sum).
  for (const auto& d : t->deps) {
    if (!d.causal) continue;
    const auto& q = impl.instr(d.consumer);
    if (!q.signal) continue;
    auto& sem = t->semaphores.at(q.signal->sem);
    const auto& p = impl.instr(d.producer);
    if (p.signal && p.signal->sem == q.signal->sem) sem.pinned[stream_of(q)].push_back(d.consumer);
    sem.pinned_from[{stream_of(q), p.engine}].push_back(d.consumer);
  }
  t->regs.reserve(ix.engines.size());
  for (model::EngineId e = 0; e < ix.engines.size(); ++e) t->regs.push_back(register_writes(impl, e));
  t->cut_lemmas = std::make_shared<CutLemmas>(impl, spec_ix, analysis, *t);
  return t;
}

smt::Term Encoder::signal_sum(const std::string& sem) {
  // Once per semaphore (two waits on one semaphore read one sum: one summary, one `full`).
  if (const auto it = signal_sums_.find(sem); it != signal_sums_.end()) return it->second;
  const auto out = build_signal_sum(sem);
  signal_sums_.emplace(sem, out);
  return out;
}

smt::Term Encoder::build_signal_sum(const std::string& sem) {
  const auto* t = tables_.semaphore(sem);
  if (!t) return ctx_.nat(0);
  // The terms in the order of their first signal, so that a sum with nothing folded is the one
  // the instructions' order gives.
  struct Part {
    model::InstrId first = 0;
    std::optional<model::InstrId> b, a;  // a run from `first`, between b and a, of n signals
    std::uint64_t n = 0;
  };
  std::vector<Part> todo;
  auto own = [&](model::InstrId i) { todo.push_back(Part{i, std::nullopt, std::nullopt, 0}); };
  // With the barrier facts every instruction's R takes part (frontier.cpp): nothing to fold.
  // Signals of different amounts: a run's sum is not a multiple of one count.
  const bool barrier_facts = barriers_shared_ && places_.has_barrier() && places_.barrier_misalignment().empty();
  const auto item = [&](model::InstrId i) { return places_.instr(i).at.item; };
  // Whole top-level statements: per engine E, the signals in statements before the first one
  // where the query names a signal of this semaphore by E (or the consumer's, if earlier) and
  // those in statements after the consumer's each stand as one term (a chain of semaphores reused across
  // loop nests, docs/allocator.md, collects a signal per nest: named one by one, every consumer's
  // query grew with the kernel).
  const auto tc = consumer_stmt_in(model::kTop);
  std::map<model::EngineId, std::size_t> summary_of;  // engine -> index in summaries_
  std::map<model::EngineId, bool> has_late;
  auto summary = [&](model::EngineId h) -> SignalSummary& {
    if (const auto it = summary_of.find(h); it != summary_of.end()) return summaries_[it->second];
    SignalSummary s;
    s.sem = sem;
    s.engine = h;
    s.cut = tc;
    // Named instructions of h in sem's sum must keep their own R (the spec side reads them); the
    // others may lie before the cut (a cut at the start of the chain's member, where a base
    // register is known: cut lemmas).
    for (const auto i : named_)
      if (const auto& pi = places_.instr(i); pi.engine == h && pi.signal && pi.signal->sem == sem)
        s.cut = std::min(s.cut, places_.stmt_in(model::kTop, pi.at));
    summary_of.emplace(h, summaries_.size());
    summaries_.push_back(s);
    return summaries_.back();
  };
  for (const auto& [key, sig] : t->by_stream) {
    if (barrier_facts) {
      for (const auto i : sig) own(i);
      continue;
    }
    const auto h = std::get<2>(key);
    // A stream is one block statement, so all of its signals lie in one top-level statement.
    if (const auto st = top_stmt(std::get<0>(key), std::get<1>(key)); st != tc && countable(sig.front())) {
      auto& s = summary(h);
      if (st < s.cut || st > tc) {
        // Pinned signals too: what a causality fact says of them is within their own
        // statement, which is drained (early) or not begun (late) when the group counts.
        for (const auto i : sig) {
          // The consumer's engine has issued nothing of a statement after its own: those of its
          // signals add nothing (R(I) <= count(I, c) = 0).
          if (st > tc && h == engine_) continue;
          if (st > tc) {
            has_late[h] = true;
          } else {
            s.early_signals.push_back(i);
            s.last_early = std::max(s.last_early, st);
          }
        }
        continue;
      }
    }
    // The consumer's engine's own instructions are named by R(I) <= count(I, c) as well.
    if (!t->add || h == engine_) {
      for (const auto i : sig) own(i);
      continue;
    }
    // The instructions of this stream that other facts name, in stream order: the producers of
    // the consumer's dependencies (the spec side, the landmarks), and the pinned signals.
    std::vector<model::InstrId> named;
    for (const auto i : named_)
      if (stream_of(places_.instr(i)) == key) named.push_back(i);
    if (const auto it = t->pinned.find(key); it != t->pinned.end())
      named.insert(named.end(), it->second.begin(), it->second.end());
    if (const auto it = t->pinned_from.find({key, engine_}); it != t->pinned_from.end())
      named.insert(named.end(), it->second.begin(), it->second.end());
    std::sort(named.begin(), named.end(), [&](auto x, auto y) { return item(x) < item(y); });
    named.erase(std::unique(named.begin(), named.end()), named.end());
    // sig[lo, hi): signals strictly between instructions b and a of the stream (none: its start
    // or end), no other fact naming them.
    auto segment = [&](std::size_t lo, std::size_t hi, std::optional<model::InstrId> b,
                       std::optional<model::InstrId> a) {
      if (lo >= hi) return;
      if (!b) {
        own(sig[lo]);
        b = sig[lo++];
      }
      if (lo < hi && !a) {
        own(sig[hi - 1]);
        a = sig[--hi];
      }
      if (hi - lo < kMinRun) {
        for (auto k = lo; k < hi; ++k) own(sig[k]);
        return;
      }
      todo.push_back(Part{sig[lo], b, a, static_cast<std::uint64_t>(hi - lo)});
    };
    std::size_t lo = 0;
    std::optional<model::InstrId> prev;
    for (const auto q : named) {
      const auto hi =
          static_cast<std::size_t>(std::lower_bound(sig.begin(), sig.end(), item(q),
                                                    [&](model::InstrId i, std::uint32_t v) { return item(i) < v; }) -
                                   sig.begin());
      segment(lo, hi, prev, q);
      lo = hi;
      if (lo < sig.size() && sig[lo] == q) own(sig[lo++]);
      prev = q;
    }
    segment(lo, sig.size(), prev, std::nullopt);
  }
  std::sort(todo.begin(), todo.end(), [](const Part& x, const Part& y) { return x.first < y.first; });
  std::vector<smt::Term> parts;
  for (auto& [h, k] : summary_of) {
    auto& s = summaries_[k];
    const auto& name = places_.index().engines[h];
    if (!s.early_signals.empty()) {
      s.early = nat("early_" + sem + "_" + name);
      parts.push_back(*s.early);
      // Whether every signal of sem by h before the cut is in the group (a cut lemma counts
      // them all).
      const auto& tops = tables_.signals_by_engine.at({sem, h}).tops;
      s.whole = static_cast<std::size_t>(std::lower_bound(tops.begin(), tops.end(), s.cut) - tops.begin()) ==
                s.early_signals.size();
    }
    if (has_late[h]) {
      s.late = nat("late_" + sem + "_" + name);
      parts.push_back(*s.late);
    }
  }
  for (const auto& p : todo) {
    if (p.n == 0) {
      parts.push_back(places_.instr(p.first).signal->add * R(p.first));
      continue;
    }
    auto m = nat("run_" + sem + "_" + places_.index().instrs[p.first].name + "_" + std::to_string(p.n));
    // Every R of the run lies between R(a) and R(b) (issue order on one engine), and its sum
    // takes every value between n·R(a) and n·R(b).
    facts_.push_back(m >= p.n * R(*p.a));
    facts_.push_back(m <= p.n * R(*p.b));
    parts.push_back(*t->add * m);
  }
  return ctx_.sum(parts);
}

std::optional<std::pair<std::uint32_t, smt::Term>> Encoder::cut_value(const std::string& reg, const Point& q,
                                                                      const Found& f) {
  if (summaries_.empty() || !tables_.cut_lemmas) return std::nullopt;
  const auto tq = top_stmt(q);
  for (auto& s : summaries_) {
    if (s.sem != threshold_sem_ || !s.early || !s.whole || s.cut > tq) continue;
    // The case's last assignment (none: the program's start) lies before the cut.
    if (f.def && places_.stmt_in(model::kTop, f.def->at) >= s.cut) continue;
    if (!tables_.cut_lemmas->holds(engine_, reg, s.cut, s.sem, s.engine)) continue;
    if (!s.full_var) s.full_var = nat("full_" + s.sem + "_" + places_.index().engines[s.engine]);
    return std::make_pair(s.cut, *s.full_var);
  }
  return std::nullopt;
}

smt::Term Encoder::value_at_top(const std::string& reg, std::uint32_t t) {
  return reg_value(reg, Point{model::kTop, 0, t, 0, engine_}, 0).v;
}

std::optional<smt::Term> Encoder::signals_before_top(const std::string& sem, model::EngineId h, std::uint32_t t) {
  const auto* table = tables_.semaphore(sem);
  const auto by_engine = tables_.signals_by_engine.find({sem, h});
  if (!table || by_engine == tables_.signals_by_engine.end()) return ctx_.nat(0);
  auto& memo = signals_before_[{sem, h}];
  if (const auto it = memo.find(t); it != memo.end()) return it->second;
  // From the nearest cut below t already summed: the signals in between are added to it.
  std::uint32_t from = 0;
  std::vector<smt::Term> parts;
  if (auto it = memo.lower_bound(t); it != memo.begin()) {
    --it;
    from = it->first;
    parts.push_back(it->second);
  }
  const auto& v = by_engine->second.tops;  // the tops of h's signals of sem, in program order
  const auto lo = static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), from) - v.begin());
  const auto hi = static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), t) - v.begin());
  const auto& mine = by_engine->second.ids;
  const Point q{model::kTop, 0, t, 0, engine_};
  for (auto k = lo; k < hi; ++k) {
    if (!countable(mine[k])) return std::nullopt;
    parts.push_back(places_.instr(mine[k]).signal->add * count(mine[k], q));
  }
  const auto out = ctx_.sum(parts);
  memo.emplace(t, out);
  return out;
}

void Encoder::add_summary_facts() {
  // The engine retires in issue order (docs/semantics.md §3): once any instruction of a statement
  // after the last early signal's has retired, every early signal has, all `full` of them.
  // (Named instructions of earlier statements are simply not related to the summary.)
  for (const auto& s : summaries_) {
    if (!s.early) continue;
    smt::Term full;
    if (s.full_var) {
      full = *s.full_var;  // a register holds it at the cut (cut_value)
    } else {
      // Every instance of an early signal ran before the cut, which the consumer's engine has
      // passed (uniform control: the signalling engine's trips are the ones e's walk took).
      std::vector<smt::Term> parts;
      for (const auto i : s.early_signals)
        parts.push_back(places_.instr(i).signal->add * count(i, Point{model::kTop, 0, s.cut, 0, engine_}));
      full = ctx_.sum(parts);
    }
    facts_.push_back(*s.early <= full);
    const auto all = *s.early >= full;
    for (const auto& [i, r] : R_) {
      const auto& pi = places_.instr(i);
      if (pi.engine == s.engine && countable(i) && places_.stmt_in(model::kTop, pi.at) > s.last_early)
        facts_.push_back(implies(r >= 1, all));
    }
    if (s.late) facts_.push_back(implies(*s.late >= 1, all));
  }
}

}  // namespace syncbisim::prover::detail
