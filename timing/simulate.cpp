#include "timing/simulate.h"

#include <algorithm>
#include <map>
#include <queue>

#include "model/walk.h"

namespace syncbisim::timing {

namespace {

using semantics::EngineId;
using semantics::InstrId;
using semantics::OpKind;
using semantics::SemId;

// Events are processed in time order; at equal times retirements come first, so that a wait
// satisfied by a retirement at t may issue at t, then barrier releases, then issue attempts.
enum class EvKind : std::uint8_t { Retire = 0, Release = 1, Try = 2 };

struct Event {
  std::uint64_t time = 0;
  EvKind kind = EvKind::Try;
  std::uint64_t seq = 0;
  std::uint32_t a = 0;  // Retire: semaphore; Try: engine
  std::uint32_t b = 0;  // Retire: amount
  std::int64_t inst = -1;
  bool operator>(const Event& o) const {
    if (time != o.time) return time > o.time;
    if (kind != o.kind) return kind > o.kind;
    return seq > o.seq;
  }
};

struct Frame {
  model::LoopId loop = 0;
  std::uint32_t iter = 0, trip = 0;
};

enum class St : std::uint8_t { Run, Ready, Blocked, AtBarrier, Done };

struct Eng {
  std::uint32_t pc = 0;
  std::uint64_t t = 0, pipe_free = 0, last_retire = 0, ready = 0;
  std::vector<std::uint64_t> regs;
  std::vector<Frame> frames;
  std::vector<std::uint64_t> trips_started;  // per loop
  std::vector<std::uint32_t> last_trip;      // per loop: the trip its latest start chose
  St st = St::Run;
  bool try_pending = false;
  std::uint64_t covered = 0, busy = 0, stalled = 0, barrier = 0, barrier_from = 0, reached = 0, arrive = 0;
  // the current instruction's stall at its waits, once they hold (stall_to == 0: none)
  std::uint64_t stall_from = 0, stall_to = 0;
  std::int64_t cause = -1;
  std::int32_t cause_sem = -1;
};

class Simulator {
 public:
  Simulator(const semantics::CompiledProgram& p, const std::vector<InstrCost>& costs, const CostTable& table,
            const TripPlan& plan, const SimOptions& o)
      : p_(p), costs_(costs), table_(table), plan_(plan), o_(o) {
    eng_.resize(p.engine_count());
    for (auto& e : eng_) {
      e.regs.assign(p.registers.size(), 0);
      e.trips_started.assign(p.loop_count(), 0);
      e.last_trip.assign(p.loop_count(), 0);
    }
    if (o.record) out_.sequencer.resize(p.engine_count());
    sem_.assign(p.semaphores.size(), 0);
    last_signal_.assign(p.semaphores.size(), -1);
    last_signal_time_.assign(p.semaphores.size(), 0);
    waiters_.resize(p.semaphores.size());
    regop_cost_.reserve(p.regops.size());
    for (const auto& r : p.regops) {
      std::uint64_t ops = 0;
      for (const auto& n : r.expr.nodes) ops += n.op != model::ExprOp::Const && n.op != model::ExprOp::Reg;
      regop_cost_.push_back(table.sequencer.alu_op * std::max<std::uint64_t>(1, ops));
    }
  }

  Simulation run() {
    for (EngineId e = 0; e < eng_.size() && !cut_; ++e) step(e);
    while (!heap_.empty() && !cut_) {
      if (++steps_ > o_.max_steps) [[unlikely]] {
        cut_ = true;
        break;
      }
      const Event ev = heap_.top();
      heap_.pop();
      now_ = ev.time;
      switch (ev.kind) {
        case EvKind::Retire: retire(ev); break;
        case EvKind::Release: release(); break;
        case EvKind::Try:
          eng_[ev.a].try_pending = false;
          attempt(static_cast<EngineId>(ev.a));
          break;
      }
    }
    return finish();
  }

 private:
  void push(std::uint64_t time, EvKind k, std::uint32_t a, std::uint32_t b = 0, std::int64_t inst = -1) {
    heap_.push(Event{time, k, seq_++, a, b, inst});
  }

  // Busy time as the union of intervals that start in nondecreasing order.
  static void busy(Eng& g, std::uint64_t from, std::uint64_t to) {
    if (to <= from) return;
    if (from >= g.covered) g.busy += to - from;
    else if (to > g.covered) g.busy += to - g.covered;
    g.covered = std::max(g.covered, to);
  }

  // Runs engine e's own steps until it needs the others (an issue, a barrier) or ends.
  void step(EngineId e) {
    auto& g = eng_[e];
    const auto& code = p_.code[e];
    while (g.st == St::Run) {
      if (++steps_ > o_.max_steps) [[unlikely]] {
        cut_ = true;
        return;
      }
      const auto& op = code[g.pc];
      switch (op.kind) {
        case OpKind::RegOp: {
          const auto& r = p_.regops[op.a];
          // A value past 2^64 - 1 (check reports it: an overflow, docs/semantics.md "Widths") is held
          // at 2^64 - 1 here, never wrapped: the timing model needs a number, and a wait on it blocks.
          if (std::uint64_t v = 0; r.expr.eval(g.regs.data(), v)) g.regs[r.dst] = v;
          else g.regs[r.dst] = UINT64_MAX;
          const auto c = regop_cost_[op.a];
          busy(g, g.t, g.t + c);
          sequencer(e, g.t, g.t + c);
          g.t += c;
          ++regops_;
          ++g.pc;
          break;
        }
        case OpKind::LoopHead: {
          const auto l = op.a;
          const auto& cl = p_.loops[l];
          std::uint32_t trip;
          if (cl.kind == model::LoopKind::CondElse) trip = 1 - g.last_trip[cl.then_sibling];
          else trip = plan_.trip(l, e, g.trips_started[l]++);
          g.last_trip[l] = trip;
          if (trip == 0) {
            g.pc = op.b;
          } else {
            g.frames.push_back(Frame{l, 1, trip});
            branch(e);
            ++g.pc;
          }
          break;
        }
        case OpKind::LoopBack: {
          auto& f = g.frames.back();
          if (f.iter < f.trip) {
            ++f.iter;
            branch(e);
            g.pc = op.b + 1;
          } else {
            g.frames.pop_back();
            ++g.pc;
          }
          break;
        }
        case OpKind::Instr:
          g.ready = std::max(g.t, g.pipe_free);
          if (costs_[op.a].shared_dma) g.ready = std::max(g.ready, dma_free_);
          g.st = St::Ready;
          g.try_pending = true;
          push(g.ready, EvKind::Try, e);
          return;
        case OpKind::Barrier:
          g.st = St::AtBarrier;
          g.reached = g.t;
          g.barrier_from = std::max(g.t, g.pipe_free);
          g.arrive = std::max(g.t, g.last_retire);  // drained: everything in flight has retired
          if (++at_barrier_ == eng_.size()) {
            std::uint64_t last = 0;
            for (const auto& x : eng_) last = std::max(last, x.arrive);
            // paper §8.1: drain, handshake, reset, handshake
            push(last + 2ULL * table_.barrier.handshake + table_.barrier.reset, EvKind::Release, 0);
          }
          return;
        case OpKind::End: g.st = St::Done; return;
      }
    }
  }

  void sequencer(EngineId e, std::uint64_t from, std::uint64_t to) {
    if (!o_.record || to <= from) return;
    auto& runs = out_.sequencer[e];
    if (!runs.empty() && runs.back().second == from) runs.back().second = to;
    else runs.emplace_back(from, to);
  }

  void branch(EngineId e) {
    auto& g = eng_[e];
    busy(g, g.t, g.t + table_.sequencer.branch);
    sequencer(e, g.t, g.t + table_.sequencer.branch);
    g.t += table_.sequencer.branch;
    ++branches_;
  }

  void retire(const Event& ev) {
    sem_[ev.a] += ev.b;
    last_signal_[ev.a] = ev.inst;
    last_signal_time_[ev.a] = ev.time;
    auto& w = waiters_[ev.a];
    for (const auto e : w) {
      auto& g = eng_[e];
      if (g.st == St::Blocked && !g.try_pending) {
        g.try_pending = true;
        push(now_, EvKind::Try, e);
      }
    }
    w.clear();
  }

  std::uint64_t threshold(const Eng& g, const semantics::CompiledWait& w) const {
    return w.reg_threshold ? g.regs[w.reg] : w.value;
  }

  void attempt(EngineId e) {
    auto& g = eng_[e];
    const auto id = p_.code[e][g.pc].a;
    const auto& ci = p_.instrs[id];
    bool ok = true;
    for (const auto& w : ci.waits)
      if (sem_[w.sem] < threshold(g, w)) {
        ok = false;
        waiters_[w.sem].push_back(e);
      }
    if (!ok) {
      g.st = St::Blocked;
      return;
    }
    const auto& cost = costs_[id];
    if (now_ > g.ready) {
      // Stalled at its waits from `ready` to now: the wait whose semaphore was the last to reach
      // its threshold held the issue, and the instance that signalled it is the cause.
      const semantics::CompiledWait* binding = nullptr;
      for (const auto& w : ci.waits)
        if (threshold(g, w) > 0 && (!binding || last_signal_time_[w.sem] > last_signal_time_[binding->sem]))
          binding = &w;
      const auto stall = now_ - g.ready;
      g.stalled += stall;
      g.stall_from = g.ready;
      g.stall_to = now_;
      g.cause = -1;
      g.cause_sem = -1;
      if (binding) {
        g.cause = last_signal_[binding->sem];
        g.cause_sem = static_cast<std::int32_t>(binding->sem);
        auto& st = stalls_[{id, binding->sem}];
        st.instr = id;
        st.sem = binding->sem;
        st.total += stall;
        ++st.count;
        st.longest = std::max(st.longest, stall);
      }
      g.ready = now_;
    }
    if (cost.shared_dma && dma_free_ > now_) {
      // another queue's transfer holds the DMA engines: try again when they are free (waiting
      // for them is not a stall at a wait)
      g.ready = dma_free_;
      g.st = St::Ready;
      g.try_pending = true;
      push(dma_free_, EvKind::Try, e);
      return;
    }
    const std::uint64_t issue = now_;
    Instance in;
    in.instr = id;
    in.engine = e;
    in.ready = g.stall_to == 0 ? issue : g.stall_from;
    in.issue = issue;
    in.busy_end = issue + cost.interval;
    in.retire = std::max(issue + cost.latency, g.last_retire);
    in.stall_end = g.stall_to == 0 ? issue : g.stall_to;
    in.cause = g.cause;
    in.cause_sem = g.cause_sem;
    g.stall_from = g.stall_to = 0;
    g.cause = -1;
    g.cause_sem = -1;
    busy(g, issue, std::max(in.busy_end, issue + table_.sequencer.dispatch));
    g.pipe_free = in.busy_end;
    if (cost.shared_dma) dma_free_ = in.busy_end;
    g.last_retire = in.retire;
    g.t = issue + table_.sequencer.dispatch;
    const auto index = static_cast<std::int64_t>(issued_);
    ++issued_;
    if (ci.has_signal) push(in.retire, EvKind::Retire, ci.signal_sem, ci.signal_add, o_.record ? index : -1);
    if (o_.record) {
      for (const auto& f : g.frames)
        if (p_.loops[f.loop].kind == model::LoopKind::Loop) in.iters.emplace_back(f.loop, f.iter);
      out_.instances.push_back(std::move(in));
    }
    ++g.pc;
    g.st = St::Run;
    step(e);
  }

  void release() {
    BarrierEvent be;
    be.release = now_;
    bool all = false;
    std::vector<bool> reset(sem_.size(), false);
    // semantics.md: engines' barriers that list different semaphores reset the union
    for (EngineId e = 0; e < eng_.size(); ++e) {
      const auto& b = p_.barriers[p_.code[e][eng_[e].pc].a];
      if (b.reset_all) all = true;
      for (const auto s : b.reset) reset[s] = true;
    }
    for (SemId s = 0; s < sem_.size(); ++s)
      if (all || reset[s]) sem_[s] = 0;
    at_barrier_ = 0;
    ++barriers_;
    for (EngineId e = 0; e < eng_.size(); ++e) {
      auto& g = eng_[e];
      be.reached.push_back(g.reached);
      g.barrier += now_ - g.barrier_from;
      g.covered = std::max(g.covered, now_);
      g.t = now_;
      g.st = St::Run;
      ++g.pc;
    }
    if (o_.record) out_.barrier_events.push_back(std::move(be));
    for (EngineId e = 0; e < eng_.size(); ++e) step(e);
  }

  Simulation finish() {
    Simulation& s = out_;
    s.clock_ghz = table_.clock_ghz;
    s.instrs_issued = issued_;
    s.regops = regops_;
    s.branches = branches_;
    s.barriers = barriers_;
    std::uint64_t makespan = now_;
    for (const auto& g : eng_) makespan = std::max({makespan, g.t, g.last_retire});
    s.makespan = makespan;
    for (EngineId e = 0; e < eng_.size(); ++e) {
      const auto& g = eng_[e];
      EngineTime et;
      et.engine = p_.engines[e];
      et.busy = g.busy;
      et.stalled = g.stalled;
      et.barrier = g.barrier;
      const auto used = g.busy + g.stalled + g.barrier;
      et.idle = makespan > used ? makespan - used : 0;
      et.finish = std::max(g.t, g.last_retire);
      s.engines.push_back(et);
      if (g.st == St::Done || cut_) continue;
      s.deadlock = true;
      if (!s.deadlock_detail.empty()) s.deadlock_detail += "; ";
      s.deadlock_detail += p_.engines[e];
      if (g.st == St::AtBarrier) {
        s.deadlock_detail += " waits at a barrier";
      } else {
        const auto id = p_.code[e][g.pc].a;
        s.deadlock_detail += " waits before " + p_.instrs[id].name + ":";
        for (const auto& w : p_.instrs[id].waits)
          if (sem_[w.sem] < threshold(g, w))
            s.deadlock_detail += " " + p_.semaphores[w.sem] + " = " + std::to_string(sem_[w.sem]) + " < " +
                                 std::to_string(threshold(g, w));
      }
    }
    if (cut_)
      s.limit =
          "steps " + std::to_string(o_.max_steps) + " (the timing model at these trips; --trips sets smaller ones)";
    for (const auto& [k, v] : stalls_) s.stalls.push_back(v);
    std::stable_sort(s.stalls.begin(), s.stalls.end(),
                     [](const StallEntry& a, const StallEntry& b) { return a.total > b.total; });
    return std::move(out_);
  }

  const semantics::CompiledProgram& p_;
  const std::vector<InstrCost>& costs_;
  const CostTable& table_;
  const TripPlan& plan_;
  SimOptions o_;
  std::vector<Eng> eng_;
  std::vector<std::uint64_t> sem_;
  std::vector<std::int64_t> last_signal_;
  std::vector<std::uint64_t> last_signal_time_;
  std::vector<std::vector<EngineId>> waiters_;
  std::vector<std::uint64_t> regop_cost_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> heap_;
  std::map<std::pair<InstrId, SemId>, StallEntry> stalls_;
  std::uint64_t dma_free_ = 0;  // when the shared DMA engines take the next transfer
  std::uint64_t seq_ = 0, now_ = 0, issued_ = 0, regops_ = 0, branches_ = 0, barriers_ = 0;
  std::uint64_t steps_ = 0;  // against SimOptions::max_steps
  bool cut_ = false;
  std::size_t at_barrier_ = 0;
  Simulation out_;
};

}  // namespace

Simulation simulate(const semantics::CompiledProgram& impl, const std::vector<InstrCost>& costs, const CostTable& table,
                    const TripPlan& plan, const SimOptions& options) {
  return Simulator(impl, costs, table, plan, options).run();
}

std::vector<InstrCost> instr_costs(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                   const CostTable& table) {
  std::vector<InstrCost> out(spec_ix.instrs.size());
  model::for_each_stream(spec.body, [&](const model::Stream& s) {
    for (const auto& item : s.items)
      if (const auto* in = std::get_if<model::Instr>(&item))
        if (auto id = spec_ix.instr(in->id)) out[*id] = instr_cost(table, s.engine, *in->extra);
  });
  return out;
}

std::vector<std::string> instrs_without_op(const model::Program& spec) {
  std::vector<std::string> out;
  model::for_each_stream(spec.body, [&](const model::Stream& s) {
    for (const auto& item : s.items)
      if (const auto* in = std::get_if<model::Instr>(&item))
        if (!in->extra->count("op") && !in->extra->count("interval")) out.push_back(in->id);
  });
  return out;
}

model::Result<Simulation> simulate_pair(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                        const model::Program& impl, const model::ProgramIndex& impl_ix,
                                        const CostTable& table, const std::map<std::string, std::uint32_t>& given,
                                        const SimOptions& options) {
  auto plan = TripPlan::make(spec, spec_ix, given);
  if (!plan) return plan.error();
  const auto code = semantics::compile(impl, impl_ix, &spec_ix);
  const auto costs = instr_costs(spec, spec_ix, table);
  auto sim = simulate(code, costs, table, *plan, options);
  sim.trips = plan->describe();
  return sim;
}

}  // namespace syncbisim::timing
