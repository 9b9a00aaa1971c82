#include "prover/prove.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "analysis/deadlock_freedom.h"
#include "analysis/dependency_analysis.h"
#include "checker/trace_view.h"
#include "parallel/run_indexed.h"
#include "prover/detail/encoder.h"
#include "prover/detail/smt.h"
#include "prover/directed.h"
#include "prover/overflow.h"
#include "prover/places.h"
#include "prover/shorten.h"

namespace syncbisim::prover {

const char* to_string(Answer a) {
  switch (a) {
    case Answer::Proved: return "proved";
    case Answer::Refuted: return "refuted";
    case Answer::Unknown: return "unknown";
  }
  return "?";
}

int exit_status(Answer a) {
  switch (a) {
    case Answer::Proved: return 0;
    case Answer::Refuted: return 1;
    case Answer::Unknown: return 3;
  }
  return 3;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Instructions the impl may hold at a barrier while the spec could issue them: the first
// instruction of an engine after one of its barriers, through loop control only (the lock step
// compares the spec's next instruction past loop control then: docs/semantics.md).
std::vector<std::uint8_t> first_after_barrier(const semantics::CompiledProgram& impl) {
  std::vector<std::uint8_t> out(impl.instrs.size(), 0);
  for (const auto& code : impl.code) {
    std::vector<std::uint8_t> seen(code.size(), 0);
    std::vector<std::uint32_t> todo;
    for (std::uint32_t pc = 0; pc < code.size(); ++pc)
      if (code[pc].kind == semantics::OpKind::Barrier) todo.push_back(pc + 1);
    while (!todo.empty()) {
      const auto pc = todo.back();
      todo.pop_back();
      if (pc >= code.size() || seen[pc]) continue;
      seen[pc] = 1;
      const auto& op = code[pc];
      switch (op.kind) {
        case semantics::OpKind::Instr: out[op.a] = 1; break;
        case semantics::OpKind::RegOp:
        case semantics::OpKind::Barrier: todo.push_back(pc + 1); break;
        case semantics::OpKind::LoopHead:
          todo.push_back(pc + 1);
          todo.push_back(op.b);
          break;
        case semantics::OpKind::LoopBack: todo.push_back(op.b); break;
        case semantics::OpKind::End: break;
      }
    }
  }
  return out;
}

// Everything the queries of one program share.
struct Job {
  const model::Program& spec;
  const model::Program& impl;
  const model::ProgramIndex& spec_ix;
  const Places& places;
  const checker::ProgramPair& pair;
  const analysis::DependencyAnalysis& analysis;
  const ProveOptions& o;
  // What every consumer's encoding reads of the whole program, built once (docs/prover.md
  // "Complexity").
  std::shared_ptr<const detail::ProgramTables> tables;
};

Answer combine(Answer a, Answer b) {
  if (a == Answer::Refuted || b == Answer::Refuted) return Answer::Refuted;
  if (a == Answer::Proved && b == Answer::Proved) return Answer::Proved;
  return Answer::Unknown;
}

// The first attempt at a consumer (docs/prover.md "Complexity"): its queries, in the order
// ConsumerProof asks them, on a context and a solver shared by every consumer of the program (its
// terms and facts in scopes of their own), answering only whether every one is unsatisfiable.
// Setting up a Z3 context and solver costs more than a small query itself; this sets them up once.
// True means every property of the consumer is proved, exactly the result ConsumerProof gives
// when each query is unsatisfiable (the queries are the same formulas, the Encoder's
// safe_query(), held_query() and exact_query(): unsatisfiable is unsatisfiable whatever else the
// solver saw before). Anything else (satisfiable, unknown, outside the fragment) is false, and the
// consumer is proved again from the start by ConsumerProof on a context of its own, so its models,
// witnesses and reasons are those of a fresh solver, as before.
bool proved_on_shared(const Job& job, smt::Context& ctx, smt::Solver& solver, model::InstrId c, bool holdable) {
  const smt::Context::Scope terms(ctx);
  const smt::Solver::Scope facts(solver);
  try {
    detail::Encoder enc(ctx, job.places, job.spec_ix, job.analysis, c, *job.tables);
    enc.encode();
    for (const auto& f : enc.facts()) solver.add(f);
    const auto unsat = [&](const std::vector<smt::Term>& violation) {
      return solver.check(violation).status == smt::Status::Unsat;
    };
    if (!unsat(enc.safe_query())) return false;
    if (holdable && !unsat(enc.held_query())) return false;
    return unsat(enc.exact_query());
  } catch (const detail::Outside&) {
    return false;
  } catch (const std::exception&) {
    return false;  // ConsumerProof meets it again and says so
  }
}

// The context and solver proved_on_shared asks on: one per thread.
struct SharedSolver {
  explicit SharedSolver(unsigned timeout_ms) : solver(ctx, timeout_ms) {}
  smt::Context ctx;
  smt::Solver solver;
};

// One consumer: its encoding, its solver, and the witnesses found so far.
class ConsumerProof {
 public:
  ConsumerProof(const Job& job, model::InstrId c, std::vector<const analysis::DependencyInfo*> deps, bool holdable)
      : job_(job),
        c_(c),
        holdable_(holdable),
        solver_(ctx_, job.o.z3_timeout_ms),
        enc_deps_(std::move(deps)),
        enc_(ctx_, job.places, job.spec_ix, job.analysis, c, *job.tables) {
    const auto& sp = job.pair.spec_code();
    for (semantics::LoopId l = 0; l < sp.loops.size(); ++l) loop_id_[sp.loops[l].name] = l;
    for (semantics::InstrId i = 0; i < sp.instrs.size(); ++i) instr_id_[sp.instrs[i].name] = i;
    const auto& ix = job.places.index();
    cid_ = instr_id_.at(ix.instrs[c].name);
    ceng_ = sp.instrs[cid_].engine;
  }

  ConsumerResult run() {
    ConsumerResult r;
    const auto& ix = job_.places.index();
    r.instr = ix.instrs[c_].name;
    r.engine = ix.engines[job_.places.instr(c_).engine];
    try {
      enc_.encode();
    } catch (const detail::Outside& e) {
      r.safe = r.exact = Property{Answer::Unknown, e.reason, std::nullopt, std::nullopt};
      r.answer = Answer::Unknown;
      return r;
    }
    for (const auto& f : enc_.facts()) solver_.add(f);
    r.safe = decide(enc_.safe_query(), Goal::UnderSync);
    // A run after an under-synchronization may have met an over-synchronization on its way.
    Property held{Answer::Proved, "", std::nullopt, std::nullopt};
    if (over_) {
      r.exact = refuted(*over_, std::nullopt);
    } else {
      if (holdable_) {
        // Without the barrier facts (barriers the prover cannot relate across engines), a
        // satisfiable held query gives a model to run, and an unknown one says why.
        held = decide(enc_.held_query(), Goal::AtBarrier);
        if (!enc_.barriers_relatable() && held.answer == Answer::Unknown) {
          const auto& why = job_.places.barrier_misalignment();
          held.reason += "; the impl may hold it at a barrier, and the prover cannot relate the engines there: " +
                         (why.empty() ? std::string("a barrier lies in a loop with a per-engine trip rule "
                                                    "(paper §7.5), so engines may meet different numbers of barriers")
                                      : why);
        }
      }
      if (held.answer == Answer::Refuted) {
        r.exact = held;
      } else {
        auto released = decide(enc_.exact_query(), Goal::OverSync);
        if (released.answer == Answer::Refuted || held.answer == Answer::Proved) {
          r.exact = released;
        } else {
          r.exact = held;
          if (released.answer == Answer::Unknown) r.exact.reason = released.reason + "; " + held.reason;
        }
      }
    }
    // A proved property must never meet a witness (docs/prover.md "Soundness"): say so loudly.
    if (r.safe.answer == Answer::Proved && under_) r.safe = internal("safety", *under_);
    if (r.exact.answer == Answer::Proved && over_) r.exact = internal("exactness", *over_);
    for (auto* p : {&r.safe, &r.exact})
      if (p->answer == Answer::Unknown)
        for (const auto& a : enc_.approximated()) p->reason += "; " + a;
    r.answer = combine(r.safe.answer, r.exact.answer);
    return r;
  }

 private:
  Property internal(const char* what, const Witness& w) {
    return Property{Answer::Unknown,
                    std::string("internal error: ") + what + " proved, yet a directed run found " + w.kind + " (" +
                        w.description + "); please report this",
                    std::nullopt, std::nullopt};
  }

  Counterexample names(const detail::ModelReading& m) const {
    const auto& ix = job_.places.index();
    Counterexample out;
    for (const auto& [l, t] : m.trips) out.trips[ix.loops[l].name] = t;
    for (const auto& [l, j] : m.iteration) out.iteration[ix.loops[l].name] = j;
    for (const auto& [i, r] : m.retired) out.retired[ix.instrs[i].name] = r;
    return out;
  }

  Property refuted(const Witness& w, const std::optional<Counterexample>& model) const {
    // The witness's own numbers: where the consumer's engine stands, and the trips it chose.
    std::string at;
    for (const auto& [loop, it] : w.iteration) at += (at.empty() ? "" : ", ") + loop + " = " + std::to_string(it);
    std::map<std::string, std::uint32_t> chosen;
    const auto& sp = job_.pair.spec_code();
    for (const auto& st : w.trace)
      if (st.kind == semantics::StepKind::Choose && sp.loops[st.aux].kind == model::LoopKind::Loop)
        chosen[sp.loops[st.aux].name] = std::max(chosen[sp.loops[st.aux].name], st.arg);
    if (!w.trace_built) chosen = w.chosen;
    std::string trips;
    for (const auto& [loop, t] : chosen) trips += (trips.empty() ? "" : ", ") + loop + " = " + std::to_string(t);
    std::string reason = w.kind;
    if (w.mismatch.impl_blocked_at_barrier) reason += ", held at a barrier";
    if (!at.empty()) reason += (w.mismatch.impl_blocked_at_barrier ? " after iteration " : " at iteration ") + at;
    reason += " (";
    if (!trips.empty()) reason += "largest trips chosen " + trips + "; ";
    reason += w.found_by + ", " + std::to_string(w.steps) + " steps";
    if (!w.trace_built)
      reason += "; trace not built: longer than the witness limit of " + std::to_string(job_.o.max_witness_steps) +
                " steps (--max-witness-steps)";
    reason += ")";
    return Property{Answer::Refuted, reason, model, w};
  }

  Witness witness(const semantics::Mismatch& m, std::vector<semantics::Step> trace, const char* by,
                  const std::vector<std::pair<semantics::LoopId, std::uint32_t>>& at = {},
                  std::optional<std::uint64_t> cut_steps = std::nullopt,
                  const std::map<semantics::LoopId, std::uint32_t>& chosen = {}) const {
    Witness w;
    w.steps = cut_steps ? *cut_steps : trace.size();
    w.trace_built = !cut_steps;
    for (const auto& [l, t] : chosen) w.chosen[job_.pair.spec_code().loops[l].name] = t;
    for (const auto& [l, it] : at) w.iteration.emplace_back(job_.pair.spec_code().loops[l].name, it);
    w.kind = m.impl_can && !m.spec_can ? "under-sync" : "over-sync";
    w.description = checker::describe_mismatch(job_.pair.spec_code(), job_.pair.impl_code(), m);
    w.trace = std::move(trace);
    w.mismatch = m;
    w.found_by = by;
    return w;
  }

  // A shorter trace by search at the same trips, when they are small (docs/prover.md).
  void shorten(Witness& w, const std::map<semantics::LoopId, std::uint32_t>& trips) const {
    if (!w.trace_built || w.trace.size() <= 30) return;
    for (const auto& [l, t] : trips)
      if (t > 16) return;
    ShortenRequest sr;
    sr.trips = trips;
    sr.consumer = cid_;
    sr.engine = ceng_;
    sr.under = w.kind == "under-sync";
    sr.max_states = job_.o.shorten_max_states;
    sr.max_seconds = job_.o.shorten_max_seconds;
    if (auto s = shorter_trace(job_.spec, job_.impl, job_.pair, sr, w.trace.size())) {
      // Where the shorter trace leaves the consumer's engine.
      const auto& both = job_.pair.lockstep();
      auto st = both.initial();
      for (const auto& step : s->steps) both.apply(st, step);
      std::vector<std::pair<semantics::LoopId, std::uint32_t>> at;
      const auto& sp = job_.pair.spec_code();
      for (auto l = sp.instrs[cid_].parent; l != model::kTop; l = sp.loops[l].parent)
        at.emplace(at.begin(), l, st.spec.control.engines[ceng_].frames[l].iter);
      w = witness(s->mismatch, std::move(s->steps), "explorer at those trips", at);
    }
  }

  DirectedResult direct(Goal goal, const std::optional<detail::ModelReading>& m,
                        std::map<semantics::LoopId, std::uint32_t>& trips) {
    const auto& ix = job_.places.index();
    DirectedRequest req;
    req.consumer = cid_;
    req.engine = ceng_;
    req.goal = goal;
    req.max_steps = job_.o.directed_max_steps;
    req.max_seconds = job_.o.directed_max_seconds;
    req.max_trace_steps = job_.o.max_witness_steps;
    if (m) {
      for (const auto& [l, t] : m->trips) {
        const auto id = loop_id_.at(ix.loops[l].name);
        // A cond's choice is its branch (0 then, 1 else); the model gives the then-loop's trip.
        if (ix.loops[l].kind == model::LoopKind::CondThen) trips[id] = t == 1 ? 0 : 1;
        else if (ix.loops[l].kind == model::LoopKind::Loop) trips[id] = static_cast<std::uint32_t>(t);
      }
      for (const auto l : ix.path(job_.places.instr(c_).at.loop))
        if (l != model::kTop && m->iteration.count(l))
          req.instance.emplace_back(loop_id_.at(ix.loops[l].name), static_cast<std::uint32_t>(m->iteration.at(l)));
      for (const auto d : m->unsatisfied) req.lagging.push_back(lagging_producer(d));
    } else {
      // No model: two iterations of every loop where the rule allows, then-branches.
      const auto& sp = job_.pair.spec_code();
      for (semantics::LoopId l = 1; l < sp.loops.size(); ++l)
        trips[l] = sp.loops[l].kind == model::LoopKind::Loop ? 2 : 0;
    }
    req.trips = trips;
    if (const auto before = instances_before(req); before > req.max_steps) {
      // The run issues c once in each of these iterations at least: it could not reach the
      // instance within its limit, so it is not started (a trip of 2^31 would run for minutes).
      DirectedResult skipped;
      skipped.why_not = "the model's instance of the consumer comes after " + std::to_string(before) +
                        " others, more than the directed run's limit of " + std::to_string(req.max_steps) + " steps";
      return skipped;
    }
    return directed_run(job_.pair.lockstep(), req);
  }

  // How many instances of the consumer come before the request's (its iteration vector in the
  // constant trips, outermost first), at least; 0 when the instance does not name every loop
  // around the consumer or a trip is not known.
  std::uint64_t instances_before(const DirectedRequest& req) const {
    const auto& sp = job_.pair.spec_code();
    std::size_t around = 0;
    for (auto l = sp.instrs[cid_].parent; l != model::kTop; l = sp.loops[l].parent) ++around;
    if (req.instance.size() != around) return 0;
    std::uint64_t before = 0;
    constexpr std::uint64_t kHuge = std::uint64_t{1} << 62;
    for (const auto& [l, it] : req.instance) {
      const auto t = req.trips.find(l);
      if (t == req.trips.end() || it == 0) return 0;
      std::uint64_t trip = t->second;
      if (sp.loops[l].kind == model::LoopKind::CondThen) trip = t->second == 0 ? 1 : 0;
      else if (sp.loops[l].kind == model::LoopKind::CondElse) trip = t->second == 1 ? 1 : 0;
      before = before > kHuge / std::max<std::uint64_t>(trip, 1) ? kHuge : before * trip + (it - 1);
    }
    return before;
  }

  semantics::InstrId lagging_producer(std::size_t dep) const {
    return instr_id_.at(job_.spec_ix.instrs[deps_of(dep)->producer].name);
  }
  const analysis::DependencyInfo* deps_of(std::size_t d) const { return enc_deps_[d]; }

  // Records what a run found: the goal's kind, and on its way the other kind.
  std::optional<Witness> take(const DirectedResult& dr, Goal goal,
                              const std::map<semantics::LoopId, std::uint32_t>& trips) {
    if (dr.other) {
      auto w =
          witness(*dr.other, dr.other_trace, "directed run", dr.other_at,
                  dr.other_trace_cut ? std::optional<std::uint64_t>(dr.other_steps) : std::nullopt, dr.other_chosen);
      shorten(w, trips);
      auto& slot = dr.other->impl_can && !dr.other->spec_can ? under_ : over_;
      if (!slot) slot = std::move(w);
    }
    if (!dr.found) return std::nullopt;
    auto w = witness(*dr.found, dr.trace, "directed run", dr.at,
                     dr.trace_cut ? std::optional<std::uint64_t>(dr.steps) : std::nullopt, dr.chosen);
    shorten(w, trips);
    auto& slot = goal == Goal::UnderSync ? under_ : over_;
    if (!slot) slot = w;
    return w;
  }

  // Proved if `violation` is unsatisfiable; otherwise a directed run from a model of the
  // constant-trip family, smallest trips first.
  Property decide(const std::vector<smt::Term>& violation, Goal goal) {
    const auto general = solver_.check(violation);
    if (general.status == smt::Status::Unsat) return Property{Answer::Proved, "", std::nullopt, std::nullopt};
    if (general.status == smt::Status::Unknown)
      return Property{Answer::Unknown, "z3: " + general.reason, std::nullopt, std::nullopt};
    auto reading = enc_.read(*general.model);
    Property out{Answer::Unknown, "", names(reading), std::nullopt};
    if (!job_.o.replay) {
      out.reason = "counterexample not replayed (--no-replay)";
      return out;
    }
    std::string why = "no history where every loop runs one constant trip count shows it";
    constexpr int kMaxRuns = 6;
    int runs = 0;
    std::uint64_t below = 0;  // every later model has a trip above this
    for (std::uint64_t cap : {2ULL, 3ULL, 4ULL, 8ULL, 16ULL, 64ULL, 256ULL, 1024ULL, 4096ULL, 16384ULL, 65536ULL,
                              262144ULL, 1048576ULL, 4294967295ULL}) {
      if (cap <= below) continue;
      auto q = violation;
      for (const auto& f : enc_.family(cap)) q.push_back(f);
      if (below > 0) q.push_back(enc_.some_trip_above(below));
      // A few models per cap: each run that fails rules its trips and instance out.
      bool any = false;
      for (int attempt = 0; attempt < 3 && runs < kMaxRuns; ++attempt) {
        const auto fam = solver_.check(q);
        if (fam.status != smt::Status::Sat) break;
        any = true;
        const auto m = enc_.read(*fam.model);
        std::map<semantics::LoopId, std::uint32_t> trips;
        const auto dr = direct(goal, m, trips);
        ++runs;
        if (auto w = take(dr, goal, trips)) return refuted(*w, names(m));
        if (goal == Goal::UnderSync ? static_cast<bool>(under_) : static_cast<bool>(over_))
          return refuted(goal == Goal::UnderSync ? *under_ : *over_, names(m));
        why = "counterexample not reproduced: the directed run at trips of at most " + std::to_string(cap) + ": " +
              dr.why_not;
        out.model = names(m);
        q.push_back(enc_.other_than(m));
      }
      if (any) below = cap;
      if (runs >= kMaxRuns) break;
    }
    out.reason = why;
    return out;
  }

  const Job& job_;
  model::InstrId c_;
  bool holdable_;
  smt::Context ctx_;
  smt::Solver solver_;
  std::vector<const analysis::DependencyInfo*> enc_deps_;
  detail::Encoder enc_;
  std::map<std::string, semantics::LoopId> loop_id_;
  std::map<std::string, semantics::InstrId> instr_id_;
  semantics::InstrId cid_ = 0;
  semantics::EngineId ceng_ = 0;
  std::optional<Witness> under_, over_;
};

}  // namespace

ProveResult prove(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
                  const model::ProgramIndex& impl_ix, const ProveOptions& options) {
  const auto start = Clock::now();
  ProveResult result;
  // At the widths asked about: an overflow run (a register's intermediate value, a semaphore past
  // a narrow width) stops where the semantics does, and its trace replays at those widths.
  semantics::Options so;
  so.widths = options.widths;
  auto made = checker::ProgramPair::make(spec, impl, checker::PairOptions{so});
  if (!made) throw std::invalid_argument("prover: the programs do not form a pair: " + made.error().to_string());
  result.pair = std::shared_ptr<const checker::ProgramPair>(std::move(*made));
  // Places count statements of normalized bodies (consecutive blocks are one region); loaders
  // normalize, an allocator's output in memory may not be.
  auto norm = impl;
  model::normalize(norm);
  auto norm_ix = model::ProgramIndex::build(norm);
  const auto& ix = norm_ix.ok() ? *norm_ix : impl_ix;
  const auto places = Places::build(norm_ix.ok() ? norm : impl, ix);
  const auto analysis = analysis::analyze_dependencies(spec, spec_ix);
  if (const auto free = analysis::deadlock_freedom(spec, spec_ix, analysis.deps); !free.shown)
    result.may_deadlock = "the spec: " + free.why_not;
  // A barrier that may hold an engine with no instruction after it is a violation no consumer
  // stands for: the verdict cannot be proved then (below).
  const auto barriers = analysis::barrier_freedom(impl, spec_ix);
  if (!barriers.shown)
    result.may_deadlock += (result.may_deadlock.empty() ? "the impl: " : "; the impl: ") + barriers.why_not;
  Job job{spec,         impl,     spec_ix, places,
          *result.pair, analysis, options, detail::ProgramTables::build(places, spec_ix, analysis)};
  const auto held = first_after_barrier(result.pair->impl_code());
  const auto& sp = result.pair->spec_code();
  // Each consumer's dependencies and spec instruction by name, found once (not a scan per
  // consumer: linear in a long block, docs/allocator.md "Complexity").
  std::unordered_map<std::string, std::vector<const analysis::DependencyInfo*>> deps_of;
  for (const auto& d : analysis.deps) deps_of[spec_ix.instrs[d.consumer].name].push_back(&d);
  std::unordered_map<std::string, semantics::InstrId> spec_instr;
  for (semantics::InstrId i = 0; i < sp.instrs.size(); ++i) spec_instr[sp.instrs[i].name] = i;
  struct Task {
    model::InstrId c;
    std::vector<const analysis::DependencyInfo*> deps;
    bool holdable;
  };
  std::vector<Task> tasks;
  for (model::InstrId c = 0; c < ix.instrs.size(); ++c) {
    const auto& name = ix.instrs[c].name;
    std::vector<const analysis::DependencyInfo*> deps;
    if (const auto it = deps_of.find(name); it != deps_of.end()) deps = it->second;
    bool holdable = false;
    if (const auto it = spec_instr.find(name); it != spec_instr.end()) holdable = held[it->second] != 0;
    if (deps.empty() && places.instr(c).waits.empty() && !holdable) continue;
    tasks.push_back(Task{c, std::move(deps), holdable});
  }
  // Consumers are independent: each is proved on its own (on --jobs threads, each with its own Z3
  // contexts; Z3 is safe across contexts), and its result goes to its own slot, so the order
  // and every answer are the same for any number of threads.
  result.consumers.resize(tasks.size());
  const auto one = [&](std::optional<SharedSolver>& shared, const Task& task) {
    const auto t = Clock::now();
    const auto& name = ix.instrs[task.c].name;
    ConsumerResult r;
    // L=* distances (docs/semantics.md §2, "Whole iterations") are not encoded yet: such a
    // consumer is unknown, never proved (docs/prover.md "What `unknown` means").
    for (const auto* d : task.deps)
      if (d->whole_iterations()) {
        r.instr = name;
        r.engine = ix.engines[places.instr(task.c).engine];
        r.safe = r.exact = Property{Answer::Unknown,
                                    "a dependency with a '*' distance (whole iterations) is not encoded by the prover yet; "
                                    "`check` decides it at bounded trips",
                                    std::nullopt, std::nullopt};
        r.answer = Answer::Unknown;
        r.seconds = since(t);
        return r;
      }
    try {
      if (options.shared_solver && !shared) shared.emplace(options.z3_timeout_ms);
      if (shared && proved_on_shared(job, shared->ctx, shared->solver, task.c, task.holdable)) {
        r.instr = name;
        r.engine = ix.engines[places.instr(task.c).engine];
        r.safe = r.exact = Property{Answer::Proved, "", std::nullopt, std::nullopt};
        r.answer = Answer::Proved;
      } else {
        r = ConsumerProof(job, task.c, task.deps, task.holdable).run();
      }
    } catch (const std::exception& e) {
      // A bug of the prover must not take the other consumers' answers with it.
      r.instr = name;
      r.engine = ix.engines[places.instr(task.c).engine];
      r.safe = r.exact =
          Property{Answer::Unknown, std::string("internal error: ") + e.what(), std::nullopt, std::nullopt};
      r.answer = Answer::Unknown;
    }
    r.seconds = since(t);
    return r;
  };
  // Each thread's shared solver, set up at its first consumer.
  std::vector<std::optional<SharedSolver>> shared(parallel::workers(tasks.size(), options.jobs));
  parallel::run_indexed(tasks.size(), options.jobs,
                        [&](std::size_t k, std::size_t w) { result.consumers[k] = one(shared[w], tasks[k]); });
  result.widths = options.widths;
  if (options.overflow)
    result.overflows = prove_overflow(spec_ix, places, *job.tables, *result.pair, analysis, options);
  bool refuted = false, unknown = false;
  for (const auto& r : result.consumers) {
    refuted = refuted || r.answer == Answer::Refuted;
    unknown = unknown || r.answer == Answer::Unknown;
  }
  for (const auto& o : result.overflows) {
    refuted = refuted || o.answer == Answer::Refuted;
    unknown = unknown || o.answer == Answer::Unknown;
  }
  unknown = unknown || !barriers.shown;
  result.verdict = refuted ? Answer::Refuted : (unknown ? Answer::Unknown : Answer::Proved);
  result.seconds = since(start);
  return result;
}

}  // namespace syncbisim::prover
