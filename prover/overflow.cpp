#include "prover/overflow.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "prover/detail/encoder.h"
#include "prover/detail/smt.h"
#include "prover/directed.h"
#include "prover/register_peaks.h"
#include "prover/registers.h"

namespace syncbisim::prover {

namespace {

using Clock = std::chrono::steady_clock;

// Upper bounds from the trip rules' largest values alone: an item runs at most the product of
// the largest trips of the loops around it, so a register is at most its largest assignment plus
// every increment's runs, a semaphore at most all its signals' runs. When that is within the
// width, the question is proved without Z3 (the common case: small trips); kNoBound where no bound
// is known (a loop without a rule, an assignment that reads itself).
class TripBounds {
 public:
  TripBounds(const Places& places, const model::ProgramIndex& spec_ix) : places_(places), spec_ix_(spec_ix) {}

  std::uint64_t runs(const Place& at, model::EngineId e) const {
    std::uint64_t n = 1;
    for (auto l = at.loop; l != model::kTop; l = places_.parent(l)) n = sat_mul(n, loop_hi(l, e));
    return n;
  }

  // A bound is kept and reused: a register whose writes read registers with many writes of their
  // own (cells shared by liveness, docs/allocator.md "Reusing registers and semaphores") was
  // evaluated again along every path to it, exponentially many. A finite bound never came from a
  // cycle cut (that gives kNoBound, which saturates); a kNoBound one may have, and is kept too: kNoBound only
  // sends the question to Z3, so a bound less tight than it could be is never a wrong answer.
  std::uint64_t reg(const std::string& r, model::EngineId e, std::set<std::string>& visiting) const {
    if (const auto it = known_.find({e, r}); it != known_.end()) return it->second;
    if (visiting.count(r)) return kNoBound;
    visiting.insert(r);
    std::uint64_t assigned = 0, increments = 0;
    for (const auto* w : writes_of(e, r)) {
      if (const auto a = increment_of(*w)) increments = sat_add(increments, sat_mul(*a, runs(w->at, e)));
      else assigned = std::max(assigned, expr(w->expr, e, visiting));
    }
    visiting.erase(r);
    const auto bound = sat_add(assigned, increments);
    known_.emplace(std::make_pair(e, r), bound);
    return bound;
  }

  std::uint64_t expr(const model::Expr& x, model::EngineId e, std::set<std::string>& visiting) const {
    std::vector<std::uint64_t> v;
    for (const auto& n : x.nodes) {
      switch (n.op) {
        case model::ExprOp::Const: v.push_back(n.value); break;
        case model::ExprOp::Reg: v.push_back(reg(n.reg, e, visiting)); break;
        case model::ExprOp::Add: v.push_back(sat_add(v[n.lhs], v[n.rhs])); break;
        case model::ExprOp::Sub: v.push_back(v[n.lhs]); break;
        case model::ExprOp::Mul: v.push_back(sat_mul(v[n.lhs], v[n.rhs])); break;
        case model::ExprOp::IsGt: v.push_back(1); break;
      }
    }
    // The largest value computed on the way, not only the result: each constant, sum and
    // product must fit the width (docs/semantics.md "Widths"); a register operand is that
    // register's own question, a difference or isgt at most an operand.
    std::uint64_t most = v.empty() ? 0 : v.back();
    for (std::size_t k = 0; k < v.size(); ++k)
      if (const auto op = x.nodes[k].op;
          op == model::ExprOp::Const || op == model::ExprOp::Add || op == model::ExprOp::Mul)
        most = std::max(most, v[k]);
    return most;
  }

  // The same question by an abstract run of e's stream in order (register_peaks.h), which bounds
  // a cell reused for many values where the bound above, over the whole program, cannot. Each is
  // an upper bound, so the smaller one is.
  std::uint64_t peak(const std::string& r, model::EngineId e) const {
    auto it = peaks_.find(e);
    if (it == peaks_.end())
      it = peaks_.emplace(e, register_peaks(places_, e, [&](model::LoopId l) { return loop_hi(l, e); })).first;
    const auto p = it->second.find(r);
    return p == it->second.end() ? kNoBound : p->second;
  }

 private:
  std::uint64_t loop_hi(model::LoopId l, model::EngineId e) const {
    const auto& info = places_.index().loops[l];
    if (info.kind != model::LoopKind::Loop) return 1;  // a cond's branch: once per iteration around
    const auto sl = spec_ix_.loop(info.name);
    if (!sl || !spec_ix_.loops[*sl].trip) return kNoBound;
    const auto& c = spec_ix_.loops[*sl].trip->for_engine(places_.index().engines[e]);
    if (const auto* k = std::get_if<model::ConstTrip>(&c)) return k->n;
    if (const auto* r = std::get_if<model::RangeTrip>(&c)) return r->max;
    const auto& vs = std::get<model::SeqTrip>(c).values;
    return vs.empty() ? 0 : *std::max_element(vs.begin(), vs.end());
  }

  // The writes of one register of one engine, indexed on first use (every write was scanned for
  // every register: quadratic in a long kernel).
  const std::vector<const RegWrite*>& writes_of(model::EngineId e, const std::string& r) const {
    if (by_register_.empty())
      for (const auto& w : places_.writes()) by_register_[{w.engine, w.dst}].push_back(&w);
    const auto it = by_register_.find({e, r});
    return it == by_register_.end() ? none_ : it->second;
  }

  const Places& places_;
  const model::ProgramIndex& spec_ix_;
  mutable std::map<std::pair<model::EngineId, std::string>, std::vector<const RegWrite*>> by_register_;
  mutable std::map<std::pair<model::EngineId, std::string>, std::uint64_t> known_;
  mutable std::map<model::EngineId, std::map<std::string, std::uint64_t>> peaks_;
  const std::vector<const RegWrite*> none_;
};

// A bound proves the question only when it is no saturated kNoBound (which stands for "2^64 - 1 or
// more, or unknown": at 64-bit registers that is past the width too).
bool within(std::uint64_t bound, std::uint64_t max) { return bound < kNoBound && bound <= max; }

std::string width_text(bool semaphore, const model::ValueWidths& w) {
  return semaphore ? "signed " + std::to_string(w.semaphore_bits) + "-bit semaphore"
                   : std::to_string(w.register_bits) + "-bit register";
}

// The questions of one program share a Z3 context and solver; each check passes its encoder's
// facts as scoped extras (smt::Solver::check), so one encoder's facts never meet another's.
class Questions {
 public:
  Questions(const model::ProgramIndex& spec_ix, const Places& places, const detail::ProgramTables& tables,
            const checker::ProgramPair& pair, const analysis::DependencyAnalysis& analysis, const ProveOptions& o)
      : spec_ix_(spec_ix),
        places_(places),
        tables_(tables),
        pair_(pair),
        analysis_(analysis),
        o_(o),
        bounds_(places, spec_ix),
        solver_(ctx_, o.z3_timeout_ms) {}

  OverflowResult reg(model::EngineId e, const std::string& r) {
    const auto& ix = places_.index();
    OverflowResult out{"register", r, ix.engines[e]};
    out.max = o_.widths.register_max();
    std::set<std::string> visiting;
    if (within(bounds_.reg(r, e, visiting), out.max) || within(bounds_.peak(r, e), out.max)) {
      out.found_by = "trip bounds";
      return out;
    }
    out.found_by = "z3";
    std::string unknown;
    for (const auto& w : places_.writes()) {
      if (w.engine != e || w.dst != r) continue;
      const auto at = r + " := " + w.expr.to_string() + where(w.at.loop);
      // Every value the expression computes is asked about (docs/semantics.md "Widths": the ALU
      // works in registers of the width), in evaluation order, the written value last: each
      // constant and each sum and product. A register operand holds what an earlier write wrote
      // (that write's question), a difference is at most its left operand and isgt at most 1.
      const auto& nodes = w.expr.nodes;
      std::vector<std::uint32_t> asked;
      for (std::uint32_t n = 0; n + 1 < nodes.size(); ++n) {
        const auto op = nodes[n].op;
        if (op == model::ExprOp::Add || op == model::ExprOp::Mul ||
            (op == model::ExprOp::Const && nodes[n].value > out.max))
          asked.push_back(n);
      }
      asked.push_back(static_cast<std::uint32_t>(nodes.size() - 1));
      try {
        detail::Encoder enc(ctx_, places_, spec_ix_, analysis_, e, w.at, tables_);
        for (const auto n : asked) {
          const bool root = n + 1 == nodes.size();
          model::Expr part;
          part.nodes.assign(nodes.begin(), nodes.begin() + n + 1);
          const auto here = root ? at : at + ", its intermediate value " + part.to_string();
          const auto v = root ? enc.written_value(w) : enc.node_value(w, n);
          const auto answer = ask(enc, v, out.max, out, here);
          if (answer == Answer::Refuted) {
            trace(out, false, e, false);
            return out;
          }
          if (answer == Answer::Unknown && unknown.empty()) unknown = out.reason;
        }
      } catch (const detail::Outside& x) {
        if (unknown.empty()) unknown = "at " + at + ": " + x.reason;
      }
    }
    settle(out, unknown);
    return out;
  }

  OverflowResult sem(const std::string& s) {
    const auto& ix = places_.index();
    OverflowResult out{"semaphore", s, ""};
    out.max = o_.widths.semaphore_max();
    std::vector<model::InstrId> signals;
    std::set<model::EngineId> engines;
    std::map<model::InstrId, std::uint64_t> caps;  // each signal's part at most, by the trip bounds
    std::uint64_t all = 0;
    for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
      const auto& p = places_.instr(i);
      if (!p.signal || p.signal->sem != s) continue;
      signals.push_back(i);
      engines.insert(p.engine);
      caps[i] = sat_mul(p.signal->add, bounds_.runs(p.at, p.engine));
      all = sat_add(all, caps[i]);
    }
    if (within(all, out.max)) {
      out.found_by = "trip bounds";
      return out;
    }
    out.found_by = "z3";
    // A semaphore only grows between resets, so its largest values come just after a signal
    // retires. For each signal I of an engine e: e's part then is exact (own), and the whole
    // semaphore at most `total`, e's part plus every other engine's signals since that reset up
    // to a place it cannot have passed (detail/overflow.cpp). e's part past max is an overflow on
    // e's walk; `total` within max for every I proves the semaphore. A `total` past max may be
    // the bound's slack: refuted only by a run of the pair that gets s past max (every engine
    // running to its signals), else unknown. Independently, each engine's part within max/k for
    // every signal of k engines proves the sum within max too.
    const auto k = engines.size();
    const auto share = out.max / k;
    bool all_shares = true;
    std::string unknown, sum_unknown;
    for (const auto i : signals) {
      const auto& p = places_.instr(i);
      const auto at = ix.instrs[i].name + " (" + ix.engines[p.engine] + ")" + where(p.at.loop);
      try {
        detail::Encoder enc(ctx_, places_, spec_ix_, analysis_, p.engine, p.at, tables_);
        const auto own = enc.own_signals_after(s, caps);
        auto q = enc.facts();
        q.push_back(own.value > out.max);
        const auto alone = solver_.check(q);
        if (alone.status == smt::Status::Unknown) {
          if (unknown.empty()) unknown = "at " + at + ": z3: " + alone.reason;
          all_shares = false;
          continue;
        }
        if (alone.status == smt::Status::Sat && own.exact) {
          // e's own part alone passes max: the others only add to it.
          out.engine = ix.engines[p.engine];
          const auto answer = ask(enc, own.value, out.max, out, at);
          if (answer == Answer::Refuted) {
            trace(out, true, p.engine, false);
            if (out.answer == Answer::Refuted) return out;
            if (unknown.empty()) unknown = out.reason;
          } else if (answer == Answer::Unknown && unknown.empty()) {
            unknown = out.reason;
          }
          out = reset_finding(out);
          all_shares = false;
          continue;
        }
        if (k > 1 && all_shares) {
          auto qs = enc.facts();
          qs.push_back(own.value > share);
          all_shares = solver_.check(qs).status == smt::Status::Unsat;
        }
        if (alone.status == smt::Status::Unsat && k == 1) continue;
        auto qt = enc.facts();
        qt.push_back(own.total > out.max);
        const auto sum = solver_.check(qt);
        if (sum.status == smt::Status::Unsat) continue;
        if (sum.status == smt::Status::Unknown) {
          if (sum_unknown.empty()) sum_unknown = "at " + at + ": z3: " + sum.reason;
          continue;
        }
        // A candidate: the bound passes max. Only a run of the pair decides it.
        std::string names;
        for (const auto h : engines) names += (names.empty() ? "" : ", ") + ix.engines[h];
        const auto what = "the signals of " + s + " from " + std::to_string(k) + " engine" + (k > 1 ? "s" : "") + " (" +
                          names + ") after " + at + (own.exact ? "" : ", " + own.why);
        const auto answer = ask(enc, own.total, out.max, out, at);
        if (answer == Answer::Refuted) {
          trace(out, true, p.engine, true);
          if (out.answer == Answer::Refuted) return out;
          if (sum_unknown.empty()) sum_unknown = what + ": " + out.reason;
        } else if (answer == Answer::Unknown && sum_unknown.empty()) {
          sum_unknown = what + ": " + out.reason;
        }
        out = reset_finding(out);
      } catch (const detail::Outside& x) {
        if (unknown.empty()) unknown = "at " + at + ": " + x.reason;
        all_shares = false;
      }
    }
    out.engine.clear();
    // Each part within max/k: the sum is within max, whatever the bound on the sum said.
    if (unknown.empty() && !(k > 1 && all_shares)) unknown = sum_unknown;
    settle(out, unknown);
    return out;
  }

 private:
  std::string where(model::LoopId l) const {
    return l == model::kTop ? std::string(" at the top level") : " in loop " + places_.index().loops[l].name;
  }

  // A question's result before any finding: what a refutation that did not hold set is cleared.
  static OverflowResult reset_finding(const OverflowResult& o) {
    OverflowResult r{o.kind, o.name, ""};
    r.max = o.max;
    r.found_by = o.found_by;
    return r;
  }

  void settle(OverflowResult& out, const std::string& unknown) {
    out.answer = unknown.empty() ? Answer::Proved : Answer::Unknown;
    out.reason = unknown;
    out.at.clear();
  }

  // Can `value` pass `max` at the encoder's point? Refuted only with a model where every loop
  // runs one constant trip count (a history of the engine's walk: docs/prover.md "Overflow"),
  // smallest trips first, as the consumers' refutations are searched.
  Answer ask(detail::Encoder& enc, const smt::Term& value, std::uint64_t max, OverflowResult& out,
             const std::string& at) {
    auto q = enc.facts();
    q.push_back(value > max);
    const auto general = solver_.check(q);
    if (general.status == smt::Status::Unsat) return Answer::Proved;
    if (general.status == smt::Status::Unknown) {
      out.reason = "at " + at + ": z3: " + general.reason;
      return Answer::Unknown;
    }
    for (std::uint64_t cap : {2ULL, 3ULL, 4ULL, 8ULL, 16ULL, 64ULL, 256ULL, 1024ULL, 4096ULL, 16384ULL, 65536ULL,
                              262144ULL, 1048576ULL, 16777216ULL, 4294967295ULL}) {
      auto f = q;
      for (const auto& t : enc.family(cap)) f.push_back(t);
      const auto fam = solver_.check(f);
      if (fam.status == smt::Status::Unknown) {
        out.reason = "at " + at + ": z3: " + fam.reason;
        return Answer::Unknown;
      }
      if (fam.status != smt::Status::Sat) continue;
      // The first value past max, when some history at these caps reaches exactly it (a
      // counter does): the report then names where the overflow begins.
      f.push_back(value == ctx_.nat(max) + 1);
      auto first = solver_.check(f);
      const auto& model = first.status == smt::Status::Sat ? *first.model : *fam.model;
      const auto m = enc.read(model);
      const auto& ix = places_.index();
      Counterexample cx;
      for (const auto& [l, t] : m.trips) cx.trips[ix.loops[l].name] = t;
      for (const auto& [l, j] : m.iteration) cx.iteration[ix.loops[l].name] = j;
      out.model = cx;
      out.value = model.decimal(value);
      out.at = at;
      out.answer = Answer::Refuted;
      reading_ = m;
      return Answer::Refuted;
    }
    out.reason = "at " + at + ": z3 finds a value past " + std::to_string(max) +
                 ", but in no history where every loop runs one constant trip count (a trip sequence, or an "
                 "over-approximation of the walk); not decided";
    return Answer::Unknown;
  }

  // A run of the pair at the model's trips until the value is past max (prover/directed.h,
  // Goal::Overflow; for a semaphore every engine runs to its signals), at most
  // overflow_trace_max_steps long. `must_run`: the model's value is an upper bound only (a
  // semaphore's sum over several engines), so the finding stands only if the run gets there.
  void trace(OverflowResult& out, bool semaphore, model::EngineId e, bool must_run) {
    const auto& ix = places_.index();
    std::string trips;
    for (const auto& [l, t] : out.model->trips) trips += (trips.empty() ? "" : ", ") + l + " = " + std::to_string(t);
    std::string iter;
    for (const auto& [l, j] : out.model->iteration) iter += (iter.empty() ? "" : ", ") + l + " = " + std::to_string(j);
    const auto tail = ", past the " + width_text(semaphore, o_.widths) + "'s " + std::to_string(out.max) + ", at " +
                      out.at + (iter.empty() ? "" : ", iteration " + iter) +
                      (trips.empty() ? "" : " (trips " + trips + ")");
    out.reason = out.kind + " " + out.name + " on " + ix.engines[e] + " reaches " + out.value + tail;
    // Not a finding without the run: the value is the bound's.
    auto undecided = [&](const std::string& why) {
      out.answer = Answer::Unknown;
      out.reason = "at trips " + (trips.empty() ? std::string("(none)") : trips) + " the bound reaches " + out.value +
                   ", and " + why;
      out.model.reset();
      out.value.clear();
    };
    if (!o_.replay) {
      if (must_run) return undecided("no run of the pair checks it (--no-replay)");
      out.no_trace = "not built (--no-replay)";
      return;
    }
    if (!semaphore && out.max == UINT64_MAX) {
      out.no_trace = "not built: the value is past 64 bits, more than the semantics' registers hold";
      return;
    }
    const auto& sp = pair_.spec_code();
    const auto& ip = pair_.impl_code();
    const auto& ename = ix.engines[e];
    const auto se =
        static_cast<semantics::EngineId>(std::find(sp.engines.begin(), sp.engines.end(), ename) - sp.engines.begin());
    DirectedRequest req;
    req.goal = Goal::Overflow;
    req.engine = se;
    bool has_instr = false;
    for (semantics::InstrId i = 0; i < sp.instrs.size() && !has_instr; ++i)
      if (sp.instrs[i].engine == se) {
        req.consumer = i;
        has_instr = true;
      }
    if (!has_instr) {
      if (must_run) return undecided("engine " + ename + " has no instruction a run could drive to");
      out.no_trace = "not built: engine " + ename + " has no instruction to drive to";
      return;
    }
    const auto& names = semaphore ? ip.semaphores : ip.registers;
    req.watch =
        Watch{semaphore, static_cast<std::uint32_t>(std::find(names.begin(), names.end(), out.name) - names.begin()),
              out.max};
    for (const auto& [l, t] : reading_.trips) {
      const auto& info = ix.loops[l];
      semantics::LoopId id = 0;
      for (semantics::LoopId k = 0; k < sp.loops.size(); ++k)
        if (sp.loops[k].name == info.name) id = k;
      if (info.kind == model::LoopKind::CondThen) req.trips[id] = t == 1 ? 0 : 1;
      else if (info.kind == model::LoopKind::Loop) req.trips[id] = static_cast<std::uint32_t>(t);
    }
    req.max_steps = o_.overflow_trace_max_steps;
    req.max_seconds = o_.directed_max_seconds;
    auto dr = directed_run(pair_.lockstep(), req);
    if (dr.overflowed) {
      if (semaphore) {
        // The semantics' own value, and the signal that got it there (the run's last step).
        out.value = std::to_string(dr.watched);
        if (!dr.trace.empty() && dr.trace.back().kind == semantics::StepKind::Retire) {
          const auto& last = sp.instrs[dr.trace.back().arg];
          const auto li = *ix.instr(last.name);
          // The model's iteration is e's, where the bound passes max; a sum's run gets there
          // wherever the signals add up, so only the trips are the model's then.
          if (must_run ||
              last.name + " (" + sp.engines[last.engine] + ")" + where(places_.instr(li).at.loop) != out.at) {
            out.at = last.name + " (" + sp.engines[last.engine] + ")" + where(places_.instr(li).at.loop);
            out.model->iteration.clear();
            iter.clear();
          }
          out.engine = sp.engines[last.engine];
        }
        const auto sum_tail = ", past the " + width_text(true, o_.widths) + "'s " + std::to_string(out.max) + ", at " +
                              out.at + (iter.empty() ? "" : ", iteration " + iter) +
                              (trips.empty() ? "" : " (trips " + trips + ")");
        out.reason = must_run ? "semaphore " + out.name + " reaches " + out.value +
                                    " with the signals of several engines" + sum_tail
                              : "semaphore " + out.name + " on " + out.engine + " reaches " + out.value + sum_tail;
      }
      out.trace = std::move(dr.trace);
      out.traced = true;
      return;
    }
    if (dr.steps >= req.max_steps) {
      if (must_run)
        return undecided("the run of the pair that would check it is longer than " + std::to_string(req.max_steps) +
                         " steps (the overflow trace's limit)");
      out.no_trace = "not built: the run to it is longer than " + std::to_string(req.max_steps) +
                     " steps (the overflow trace's limit)";
      return;
    }
    // The engine's walk reaches the value at these trips, yet the pair did not get there in this
    // schedule (a deadlock on the way, most often): not a finding.
    if (must_run) return undecided("the run of the pair at those trips did not reach it: " + dr.why_not);
    out.answer = Answer::Unknown;
    out.reason = out.reason + "; the run of the pair at those trips did not reach it: " + dr.why_not;
    out.model.reset();
    out.value.clear();
  }

  const model::ProgramIndex& spec_ix_;
  const Places& places_;
  const detail::ProgramTables& tables_;  // one build for every encoder (docs/prover.md "Complexity")
  const checker::ProgramPair& pair_;
  const analysis::DependencyAnalysis& analysis_;
  const ProveOptions& o_;
  TripBounds bounds_;
  smt::Context ctx_;
  smt::Solver solver_;
  detail::ModelReading reading_;
};

}  // namespace

std::vector<OverflowResult> prove_overflow(const model::ProgramIndex& spec_ix, const Places& places,
                                           const detail::ProgramTables& tables, const checker::ProgramPair& pair,
                                           const analysis::DependencyAnalysis& analysis, const ProveOptions& o) {
  std::vector<OverflowResult> out;
  Questions q(spec_ix, places, tables, pair, analysis, o);
  const auto& ix = places.index();
  for (model::EngineId e = 0; e < ix.engines.size(); ++e) {
    std::vector<std::string> regs;
    for (const auto& w : places.writes())
      if (w.engine == e && std::find(regs.begin(), regs.end(), w.dst) == regs.end()) regs.push_back(w.dst);
    for (const auto& r : regs) {
      const auto t = Clock::now();
      out.push_back(q.reg(e, r));
      out.back().seconds = std::chrono::duration<double>(Clock::now() - t).count();
    }
  }
  std::vector<std::string> sems;
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i)
    if (const auto& s = places.instr(i).signal; s && std::find(sems.begin(), sems.end(), s->sem) == sems.end())
      sems.push_back(s->sem);
  for (const auto& s : sems) {
    const auto t = Clock::now();
    out.push_back(q.sem(s));
    out.back().seconds = std::chrono::duration<double>(Clock::now() - t).count();
  }
  return out;
}

}  // namespace syncbisim::prover
