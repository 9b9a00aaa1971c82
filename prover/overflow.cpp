#include "prover/overflow.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "prover/detail/encoder.h"
#include "prover/detail/smt.h"
#include "prover/directed.h"
#include "prover/registers.h"

namespace syncbisim::prover {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t kInf = UINT64_MAX;

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return a > kInf - b ? kInf : a + b; }
std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kInf / b ? kInf : a * b;
}

// Upper bounds from the trip rules' largest values alone: an item runs at most the product of
// the largest trips of the loops around it, so a register is at most its largest assignment plus
// every increment's runs, a semaphore at most all its signals' runs. When that is within the
// width, the question is proved without Z3 (the common case: small trips); kInf where no bound
// is known (a loop without a rule, an assignment that reads itself).
class TripBounds {
 public:
  TripBounds(const Places& places, const model::ProgramIndex& spec_ix) : places_(places), spec_ix_(spec_ix) {}

  std::uint64_t runs(const Place& at, model::EngineId e) const {
    std::uint64_t n = 1;
    for (auto l = at.loop; l != model::kTop; l = places_.parent(l)) n = sat_mul(n, loop_hi(l, e));
    return n;
  }

  std::uint64_t reg(const std::string& r, model::EngineId e, std::set<std::string>& visiting) const {
    if (visiting.count(r)) return kInf;
    visiting.insert(r);
    std::uint64_t assigned = 0, increments = 0;
    for (const auto& w : places_.writes()) {
      if (w.engine != e || w.dst != r) continue;
      if (const auto a = increment_of(w)) increments = sat_add(increments, sat_mul(*a, runs(w.at, e)));
      else assigned = std::max(assigned, expr(w.expr, e, visiting));
    }
    visiting.erase(r);
    return sat_add(assigned, increments);
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
    return v.empty() ? 0 : v.back();
  }

 private:
  std::uint64_t loop_hi(model::LoopId l, model::EngineId e) const {
    const auto& info = places_.index().loops[l];
    if (info.kind != model::LoopKind::Loop) return 1;  // a cond's branch: once per iteration around
    const auto sl = spec_ix_.loop(info.name);
    if (!sl || !spec_ix_.loops[*sl].trip) return kInf;
    const auto& c = spec_ix_.loops[*sl].trip->for_engine(places_.index().engines[e]);
    if (const auto* k = std::get_if<model::ConstTrip>(&c)) return k->n;
    if (const auto* r = std::get_if<model::RangeTrip>(&c)) return r->max;
    const auto& vs = std::get<model::SeqTrip>(c).values;
    return vs.empty() ? 0 : *std::max_element(vs.begin(), vs.end());
  }

  const Places& places_;
  const model::ProgramIndex& spec_ix_;
};

// A bound proves the question only when it is no saturated kInf (which stands for "2^64 - 1 or
// more, or unknown": at 64-bit registers that is past the width too).
bool within(std::uint64_t bound, std::uint64_t max) { return bound < kInf && bound <= max; }

std::string width_text(bool semaphore, const model::ValueWidths& w) {
  return semaphore ? "signed " + std::to_string(w.semaphore_bits) + "-bit semaphore"
                   : std::to_string(w.register_bits) + "-bit register";
}

// The questions of one program share a Z3 context and solver; each check passes its encoder's
// facts as scoped extras (smt::Solver::check), so one encoder's facts never meet another's.
class Questions {
 public:
  Questions(const model::ProgramIndex& spec_ix, const Places& places, const checker::ProgramPair& pair,
            const analysis::DependencyAnalysis& analysis, const ProveOptions& o)
      : spec_ix_(spec_ix),
        places_(places),
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
    if (within(bounds_.reg(r, e, visiting), out.max)) {
      out.found_by = "trip bounds";
      return out;
    }
    out.found_by = "z3";
    std::string unknown;
    for (const auto& w : places_.writes()) {
      if (w.engine != e || w.dst != r) continue;
      const auto at = r + " := " + w.expr.to_string() + where(w.at.loop);
      try {
        detail::Encoder enc(ctx_, places_, spec_ix_, analysis_, e, w.at);
        const auto v = enc.written_value(w);
        const auto answer = ask(enc, v, out.max, out, at);
        if (answer == Answer::Refuted) {
          trace(out, enc, false, e, w.at);
          return out;
        }
        if (answer == Answer::Unknown && unknown.empty()) unknown = out.reason;
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
    std::uint64_t all = 0;
    for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
      const auto& p = places_.instr(i);
      if (!p.signal || p.signal->sem != s) continue;
      signals.push_back(i);
      engines.insert(p.engine);
      all = sat_add(all, sat_mul(p.signal->add, bounds_.runs(p.at, p.engine)));
    }
    if (within(all, out.max)) {
      out.found_by = "trip bounds";
      return out;
    }
    out.found_by = "z3";
    // Signalled from k engines: each engine's part since the last reset is at most max/k, then the
    // sum is within max (a semaphore only grows between resets, so its largest value is at most
    // the sum of each engine's largest part). One engine's part alone past max is an overflow,
    // since the others add to it.
    const auto k = engines.size();
    const auto share = out.max / k;
    std::string unknown;
    for (const auto i : signals) {
      const auto& p = places_.instr(i);
      const auto at = ix.instrs[i].name + " (" + ix.engines[p.engine] + ")" + where(p.at.loop);
      try {
        detail::Encoder enc(ctx_, places_, spec_ix_, analysis_, p.engine, p.at);
        const auto own = enc.own_signals_after(s);
        auto q = enc.facts();
        q.push_back(own.value > share);
        const auto first = solver_.check(q);
        if (first.status == smt::Status::Unsat) continue;
        if (first.status == smt::Status::Unknown) {
          if (unknown.empty()) unknown = "at " + at + ": z3: " + first.reason;
          continue;
        }
        if (!own.exact) {
          if (unknown.empty())
            unknown = "at " + at + ": " + ix.engines[p.engine] + "'s signals of " + s + " since the start reach " +
                      first.model->decimal(own.value) + ", past " + std::to_string(share) + ", and " + own.why;
          continue;
        }
        out.engine = ix.engines[p.engine];
        const auto answer = ask(enc, own.value, out.max, out, at);
        if (answer == Answer::Refuted) {
          trace(out, enc, true, p.engine, p.at);
          return out;
        }
        if (answer == Answer::Unknown && unknown.empty()) unknown = out.reason;
        if (answer == Answer::Proved && unknown.empty()) {
          std::string names;
          for (const auto h : engines) names += (names.empty() ? "" : ", ") + ix.engines[h];
          unknown = "signalled from " + std::to_string(k) + " engines (" + names + "): the prover bounds each " +
                    "engine's part since the last reset by " + std::to_string(out.max) + "/" + std::to_string(k) +
                    ", and " + ix.engines[p.engine] + "'s part after " + at + " can pass it (" +
                    first.model->decimal(own.value) + "); their sum is not encoded";
        }
      } catch (const detail::Outside& x) {
        if (unknown.empty()) unknown = "at " + at + ": " + x.reason;
      }
    }
    out.engine.clear();
    settle(out, unknown);
    return out;
  }

 private:
  std::string where(model::LoopId l) const {
    return l == model::kTop ? std::string(" at the top level") : " in loop " + places_.index().loops[l].name;
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
  // Goal::Overflow), at most overflow_trace_max_steps long.
  void trace(OverflowResult& out, const detail::Encoder&, bool semaphore, model::EngineId e, const Place&) {
    const auto& ix = places_.index();
    std::string trips;
    for (const auto& [l, t] : out.model->trips) trips += (trips.empty() ? "" : ", ") + l + " = " + std::to_string(t);
    std::string iter;
    for (const auto& [l, j] : out.model->iteration) iter += (iter.empty() ? "" : ", ") + l + " = " + std::to_string(j);
    out.reason = out.kind + " " + out.name + " on " + ix.engines[e] + " reaches " + out.value + ", past the " +
                 width_text(semaphore, o_.widths) + "'s " + std::to_string(out.max) + ", at " + out.at +
                 (iter.empty() ? "" : ", iteration " + iter) + (trips.empty() ? "" : " (trips " + trips + ")");
    if (!o_.replay) {
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
      out.trace = std::move(dr.trace);
      out.traced = true;
      return;
    }
    if (dr.steps >= req.max_steps) {
      out.no_trace = "not built: the run to it is longer than " + std::to_string(req.max_steps) +
                     " steps (the overflow trace's limit)";
      return;
    }
    // The engine's walk reaches the value at these trips, yet the pair did not get there in this
    // schedule (a deadlock on the way, most often): not a finding.
    out.answer = Answer::Unknown;
    out.reason = out.reason + "; the run of the pair at those trips did not reach it: " + dr.why_not;
    out.model.reset();
    out.value.clear();
  }

  const model::ProgramIndex& spec_ix_;
  const Places& places_;
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
                                           const checker::ProgramPair& pair,
                                           const analysis::DependencyAnalysis& analysis, const ProveOptions& o) {
  std::vector<OverflowResult> out;
  Questions q(spec_ix, places, pair, analysis, o);
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
