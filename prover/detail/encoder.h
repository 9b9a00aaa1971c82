#pragma once
// The encoding of one consumer's obligations (docs/prover.md): the consumer engine's walk, the
// points of it the two sides read (points.cpp), register values by their last assignment
// (registers.cpp), the spec's owed counts (spec_side.cpp), the semaphores since their last reset
// (impl_side.cpp), and what the retirement frontiers of the engines must satisfy (frontier.cpp).
// Every fact it asserts holds in every reachable lock-step state where the consumer is next on
// its engine; docs/prover.md says why, fact by fact.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/dependency_analysis.h"
#include "prover/detail/cut_lemmas.h"
#include "prover/detail/smt.h"
#include "prover/places.h"
#include "prover/registers.h"

namespace syncbisim::prover::detail {

// Thrown while encoding when the consumer is outside the fragment; the message is the reason,
// in the words of the program (which register, which statement, what shape was expected).
struct Outside {
  std::string reason;
};

// A dynamic point of the consumer engine's walk (docs/prover.md "Points"): in iteration
// j_anchor - back of the current trip of `anchor` (a loop around the consumer; every loop above
// it in its current iteration, as at the consumer), just before statement `stmt` of its body,
// and there before item `item` of `engine`'s stream when that statement is a block.
struct Point {
  model::LoopId anchor = model::kTop;
  std::uint32_t back = 0;
  std::uint32_t stmt = 0;
  std::uint32_t item = 0;
  model::EngineId engine = 0;
};

// A value with, when it is an isgt(...) result, the condition it is 1 under: a product with it
// becomes an ite instead of a nonlinear product.
struct Value {
  smt::Term v;
  std::optional<smt::Term> cond;
};

// Bounds a trip rule puts on one trip (and whether a constant trip can stand for the rule in a
// directed run: a rule whose values differ from trip to trip cannot).
struct TripBounds {
  std::uint64_t lo = 0, hi = 0;
  bool fixable = true;
};

// What a satisfying model says, in the program's terms (impl ids).
struct ModelReading {
  std::map<model::LoopId, std::uint64_t> trips;      // T of every loop (the constant-trip family)
  std::map<model::LoopId, std::uint64_t> iteration;  // j of the loops around the consumer
  std::map<model::InstrId, std::uint64_t> retired;   // R of the instructions either side reads
  std::vector<std::size_t> unsatisfied;              // dependencies the model leaves unsatisfied
};

// One case of a backward search: under `guard`, the last event is at `at` (none: the search
// reached the start of the program).
struct Found {
  smt::Term guard;
  std::optional<Point> at;
  const RegWrite* def = nullptr;      // for register searches: the assignment found
  const ItemRef* item = nullptr;      // the event (its last item, for a loop's end)
  model::LoopId ended = model::kTop;  // the event ends this loop's body; `at` is after the loop
  // (Searches with instructions) `item` null: the last instruction lies in loop `ended`, and
  // `opaque`: barriers may follow it there, where the search does not look.
  bool opaque = false;
  // (Searches for barriers, and with instructions) `item` null: the last event lies inside loop
  // `ended`'s last iteration, not at its end; frames.cpp looks there.
  bool inside = false;
};

// What every consumer's encoding reads of the whole program, built once per program (docs/prover.md
// "Complexity"): the control facts, the signals of each semaphore by block stream, the
// dependencies in impl ids by consumer, and each engine's register writes. Before, each consumer
// scanned every instruction for these, which on one long block is quadratic.
struct ProgramTables {
  // Instructions no loop with a per-engine rule encloses (see Encoder::shared_), whether every
  // barrier is such, and whether some loop or cond has a per-engine rule.
  std::vector<std::uint8_t> shared;
  bool barriers_shared = true;
  bool divergent = false;
  // One block statement's stream of one engine: (loop, statement, engine).
  using StreamKey = std::tuple<model::LoopId, std::uint32_t, model::EngineId>;
  struct Semaphore {
    std::vector<model::InstrId> signals;  // in instruction order
    bool ever_reset = false;              // some barrier's release resets it
    std::optional<std::uint64_t> add;     // every signal adds this (absent: they differ)
    // Its signals per stream, in stream order.
    std::map<StreamKey, std::vector<model::InstrId>> by_stream;
    // Signals that are the consumer of a causal dependency (DepRef::causal) whose producer signals
    // this semaphore too, per stream; and those whose producer lies on a given engine.
    std::map<StreamKey, std::vector<model::InstrId>> pinned;
    std::map<std::pair<StreamKey, model::EngineId>, std::vector<model::InstrId>> pinned_from;
  };
  std::map<std::string, Semaphore> semaphores;
  // Per semaphore and signalling engine, its signals in program order and the top-level statement
  // of each (the `early` summaries and the cut lemmas count the signals before a cut with them).
  struct EngineSignals {
    std::vector<model::InstrId> ids;
    std::vector<std::uint32_t> tops;
  };
  std::map<std::pair<std::string, model::EngineId>, EngineSignals> signals_by_engine;
  // Lemmas at cuts of the top level, decided once per program (cut_lemmas.h); the tables own
  // them, every encoder of the program asks them.
  std::shared_ptr<CutLemmas> cut_lemmas;
  // The spec's dependencies, by the consumer's name, in the analysis' order.
  std::map<std::string, std::vector<const analysis::DependencyInfo*>> deps_of;
  // The same with both ends in impl ids; `causal`: both directly in one loop S with an offset at S
  // only, and no offset or S directly in @top (frontier.cpp's causality facts).
  struct DepRef {
    model::InstrId producer = 0, consumer = 0;
    std::uint32_t offset = 0;
    bool causal = false;
  };
  std::vector<DepRef> deps;
  std::vector<std::vector<std::size_t>> deps_by_consumer;   // impl instruction -> indices in deps
  std::vector<std::map<std::string, RegisterWrites>> regs;  // per engine

  static std::shared_ptr<const ProgramTables> build(const Places& impl, const model::ProgramIndex& spec_ix,
                                                    const analysis::DependencyAnalysis& analysis);
  const Semaphore* semaphore(const std::string& sem) const {
    const auto it = semaphores.find(sem);
    return it == semaphores.end() ? nullptr : &it->second;
  }
};

class Encoder {
 public:
  // `analysis` is the spec's; the consumer's own dependencies are picked from it by name.
  // `tables` are ProgramTables::build of the same program, built once by prove() for every
  // encoder of the program (they outlive it).
  Encoder(smt::Context& ctx, const Places& impl, const model::ProgramIndex& spec_ix,
          const analysis::DependencyAnalysis& analysis, model::InstrId consumer, const ProgramTables& tables);
  // The walk of `engine` up to `at` (an item of a block on that engine), with no consumer: for
  // the overflow questions (docs/prover.md "Overflow"), which read only one engine's walk.
  Encoder(smt::Context& ctx, const Places& impl, const model::ProgramIndex& spec_ix,
          const analysis::DependencyAnalysis& analysis, model::EngineId engine, const Place& at,
          const ProgramTables& tables);

  // Builds both sides and the facts. Throws Outside.
  void encode();
  // ---- cut lemmas (cut_lemmas.h); the walk only. Throw Outside. ----
  // The value of register `reg` of the walk's engine at the start of top-level statement t.
  smt::Term value_at_top(const std::string& reg, std::uint32_t t);
  // Σ add · executions of semaphore sem's signals by engine h in the top-level statements before
  // t, all of which ran before t; none when one of them is under a per-engine rule.
  std::optional<smt::Term> signals_before_top(const std::string& sem, model::EngineId h, std::uint32_t t);
  // ---- overflow questions (overflow.cpp); the walk only, no consumer. Throw Outside. ----
  // The value the register write at the walk's point writes (its expression evaluated just
  // before it: an increment's register there plus its constant).
  smt::Term written_value(const RegWrite& w);
  // The value of node `node` of w's expression there (an operand or an operator's result: the
  // engine's ALU computes every one in a register, docs/semantics.md "Widths").
  smt::Term node_value(const RegWrite& w, std::uint32_t node);
  // The part of semaphore `sem` that the walk's own engine signalled since its last reset, just
  // after the instruction at the walk's point retires (an engine retires in issue order,
  // docs/semantics.md §3, so then exactly what it issued before, and that instruction, have
  // retired). `exact` false: the last reset could not be placed (`why`), and `value` counts
  // every signal since the start, an upper bound.
  // `total` bounds the whole semaphore then from above: `value` plus, for every other engine
  // signalling sem, its signals since that reset up to a place it cannot have passed (the next
  // barrier of this engine, or the end of its walk); `caps` bounds the part of a signal whose
  // counts this walk does not know (under a per-engine rule), by its trip bounds.
  struct OwnSignals {
    smt::Term value;
    bool exact = true;
    std::string why;
    smt::Term total;
  };
  OwnSignals own_signals_after(const std::string& sem, const std::map<model::InstrId, std::uint64_t>& caps = {});

  // True in every reachable state where c is e's next instruction (the impl possibly held at
  // a barrier before it).
  const std::vector<smt::Term>& facts() const { return facts_; }
  // The consumer's three queries (docs/prover.md "Consumers and their obligations"), each a
  // violation asked beside the facts: unsatisfiable proves its property. Built here alone, so
  // that the shared solver's first attempt and a consumer's own proof (prove.cpp) ask the same
  // questions by construction, term for term in the same order.
  // safe: e stands at c, not held; the waits hold and some dependency is not satisfied.
  std::vector<smt::Term> safe_query() const { return {released(), impl_ok_ && !spec_ok_}; }
  // exact, released: e stands at c, not held; every dependency is satisfied and some wait fails.
  std::vector<smt::Term> exact_query() const { return {released(), spec_ok_ && !impl_ok_}; }
  // exact, held: the impl holds e at the barrier right before c and the spec may issue c. Without
  // the barrier facts (barriers_relatable() false) the held states are all states where the spec
  // may issue c: still a proof if there are none (an unreachable consumer).
  std::vector<smt::Term> held_query() const { return {held_ ? *held_ : ctx_.truth(true), spec_ok_}; }
  // Whether the held query knows what the barrier says about every engine (else the prover
  // cannot relate the engines there, and an unknown answer says so).
  bool barriers_relatable() const { return held_.has_value(); }
  // Over-approximations the encoding had to make (a semaphore whose last reset it cannot place):
  // said along with an unknown answer.
  const std::vector<std::string>& approximated() const { return approximated_; }
  // The constant-trip histories a directed run can rebuild, with every trip at most `cap`.
  std::vector<smt::Term> family(std::uint64_t cap);
  // Some loop's constant trip exceeds `n` (to ask the family for a different model).
  smt::Term some_trip_above(std::uint64_t n);
  // Another history than the model's: some trip or some iteration around the consumer differs.
  smt::Term other_than(const ModelReading& m);
  ModelReading read(const smt::Model& m) const;
  // Bounds of loop l's trip on the consumer's engine, and the constant a directed run may use.
  TripBounds bounds_on_engine(model::LoopId l) const;
  TripBounds replay_bounds(model::LoopId l) const;
  // Every loop above l runs at most one iteration in all, so l runs one trip, its rule's first.
  bool single_run(model::LoopId l) const;

 private:
  // ---- the walk (walk.cpp) ----
  void init_control();  // divergent_, barriers_shared_ from the tables
  bool on_path(model::LoopId l) const;
  model::LoopId junction(model::LoopId l) const;
  model::LoopId path_child(model::LoopId a) const;
  smt::Term nat(const std::string& name);
  smt::Term j(model::LoopId l);
  smt::Term N(model::LoopId l, model::LoopId a);
  smt::Term E(model::LoopId l) { return N(l, model::kTop); }
  smt::Term W(model::LoopId l, model::LoopId d, std::uint32_t i);
  smt::Term T(model::LoopId l);
  smt::Term full(model::LoopId l, model::LoopId a);
  // Every loop from l up to a (excluded) can run one constant trip in a directed run.
  bool fixable_chain(model::LoopId l, model::LoopId a) const;
  // The trip of l's `index`-th run (0-based) when its rule is a sequence of different values.
  std::optional<smt::Term> seq_trip(model::LoopId l, const smt::Term& index);
  smt::Term guard_of(const Point& q);
  // ---- points (points.cpp) ----
  Point consumer_point() const;
  std::uint32_t consumer_stmt_in(model::LoopId d) const;
  smt::Term C(model::LoopId l, const Point& q);  // entries of l before q
  // Executions of the item at `at` on `engine` (an instruction or a register write) before q.
  smt::Term count(model::EngineId engine, const Place& at, const Point& q);
  smt::Term count(model::InstrId i, const Point& q);
  // From q backwards to the last assignment of `reg` on the consumer's engine, or (reg null) to
  // its last barrier, or its last barrier or instruction (`instrs`): cases over the trips.
  std::vector<Found> search_back(const Point& q, const std::string* reg, const std::string& what);
  std::vector<Found> search_back(const Point& q, const std::string* reg, const std::string& what, smt::Term guard,
                                 int depth, bool instrs = false);
  std::optional<Point> next_barrier(const Point& q);
  // The same barrier as e's barrier at q, on engine h's stream.
  Point on_engine(const Point& barrier_on_consumer, model::EngineId h) const;
  Point on_engine(const Found& barrier_on_consumer, model::EngineId h) const;
  // ---- registers (registers.cpp) ----
  Value reg_value(const std::string& reg, const Point& q, int depth);
  Value expr_value(const model::Expr& e, const Point& at, int depth);
  // ---- the two sides (spec_side.cpp, impl_side.cpp) ----
  void encode_spec();
  // A multi-level dependency's owed count, exactly, where the trips below the loop under its
  // outermost distance allow (spec_side.cpp); nullopt elsewhere (then only bounds are known).
  std::optional<smt::Term> window_owed(const analysis::DependencyInfo& d, std::size_t outer, const smt::Term& lo,
                                       const smt::Term& hi);
  void encode_impl();
  smt::Term semaphore(const std::string& sem);
  // Σ add_I · R(I) over the signals of sem, a straight-line run of signals no other fact names
  // standing as one term (runs.cpp, docs/prover.md "Complexity").
  smt::Term signal_sum(const std::string& sem);
  smt::Term build_signal_sum(const std::string& sem);
  std::map<std::string, smt::Term> signal_sums_;
  // Instructions the query names on their own: the producers of the consumer's dependencies.
  std::vector<model::InstrId> named_;
  bool resets(const BarrierPlace& b, const std::string& sem) const;
  smt::Term R(model::InstrId i);
  // ---- frontiers (frontier.cpp) ----
  void add_frontier_facts();
  void add_landmark(std::size_t dep);
  void add_barrier_bounds();
  // Per case (guard), each instruction's executions before some barrier.
  using Counts = std::vector<std::pair<smt::Term, std::map<model::InstrId, smt::Term>>>;

  // ---- iterations of loops that ran before a point (frames.cpp) ----
  // One iteration of a loop m that ran to its end before a place of the walk, the nth from the
  // end of that trip of m: known by what ran before its end (per counted instruction) and by the
  // entries of the loops of m's subtree during it, unknowns within the trip rules (fixed to the
  // constant trips in the constant-trip family). Points only live in the loops around c; a frame
  // is how the searches look inside a loop that has ended (docs/prover.md "Inside loops that
  // ended").
  struct Frame {
    model::LoopId m = model::kTop;
    std::uint32_t nth = 0;
    smt::Term exists;                            // this iteration ran
    smt::Term trip;                              // iterations of that trip of m
    std::map<model::InstrId, smt::Term> end;     // executions before the end of this iteration
    std::map<model::LoopId, smt::Term> entries;  // of the loops of m's subtree, during it
  };
  // A place in a frame's iteration: just before item `item` of the consumer engine's stream of
  // statement `stmt` of m's body (a barrier there, aligned on every engine), or, `start`, at
  // the start of statement `stmt` (on every engine: the point after the loop statement before).
  struct FramePlace {
    std::uint32_t stmt = 0, item = 0;
    bool start = false;
  };
  // Frames, outermost first: stack[0] an iteration of a loop whose statement ends just before
  // the point `outer`, stack[k + 1] an iteration of a loop of stack[k]'s body.
  struct Frames {
    Point outer;
    std::vector<Frame> stack;
  };
  // A barrier (or, with instructions, an instruction) found by a search that may look inside
  // loops that ended: in the innermost of `where`, or, with no frame, an ordinary result.
  struct Spot {
    smt::Term guard;
    std::optional<Found> outer;
    Frames where;
    FramePlace at;
    const ItemRef* item = nullptr;
    model::LoopId ended = model::kTop;  // the event ends this loop's body; `at` is after it
    bool opaque = false;
    bool in_frame() const { return !outer; }
  };
  Frame frame_of(model::LoopId m, std::uint32_t nth, smt::Term exists, smt::Term trip,
                 std::map<model::InstrId, smt::Term> end);
  smt::Term runs_in(const Frame& f, model::InstrId i) const;
  // Executions of every counted instruction before a place of the frame's iteration.
  std::map<model::InstrId, smt::Term> counts_in(const Frame& f, const FramePlace& at) const;
  std::map<model::InstrId, smt::Term> counts_at(const Spot& s);
  // Backwards from a place of the innermost frame to the last barrier (and instruction,
  // `instrs`) of the consumer's engine, leaving the frames at their loops' statements.
  std::vector<Spot> search_in(const Frames& where, const FramePlace& from, smt::Term guard, bool instrs, int depth);
  // Backwards from just before the event of s (into the loop it ends, if it does).
  std::vector<Spot> search_before(const Spot& s, bool instrs);
  // search_back for barriers (and instructions), looking inside the loops that ended where
  // their last event is not at their end.
  std::vector<Spot> search_back_spots(const Point& from, const std::string& what, smt::Term guard, bool instrs);
  std::vector<Spot> lift(const std::vector<Found>& found, bool instrs, int depth);
  // The last iteration of loop s.ended, which ended just before s's place.
  Frames enter(const Spot& s);
  std::vector<Spot> inside(const Spot& s, bool instrs, int depth);
  // ... before the release before barrier s: per case, each counted instruction's executions.
  Counts barrier_before(const Spot& s);
  // The last barriers before c whose release reset `sem`, as cases (impl_side.cpp).
  std::vector<Spot> last_reset(const std::string& sem);

  struct DepTerms {
    const analysis::DependencyInfo* info = nullptr;
    model::LoopId S = 0, P = 0;
    model::InstrId producer = 0;
    std::uint32_t k = 0;
    bool multi_level = false;
    smt::Term underflow, owed, satisfied;
  };

  smt::Context& ctx_;
  const Places& places_;
  const ProgramTables& tables_;
  const model::ProgramIndex& spec_ix_;
  model::InstrId consumer_;
  model::EngineId engine_;
  Place point_;
  std::vector<model::LoopId> path_;  // @top .. parent(c)
  const analysis::DependencyAnalysis& analysis_;
  std::vector<const analysis::DependencyInfo*> dep_infos_;
  // Instructions no loop with a per-engine rule encloses: every engine's walk counts them the
  // same way up to any point (paper §7.1, uniform control), so facts relating several engines'
  // frontiers may name them; and whether every barrier is such (then every engine meets the
  // same barriers in the same order).
  // (ProgramTables::shared, copied from the tables by init_control.)
  bool barriers_shared_ = true;
  bool divergent_ = false;  // some loop or cond has a per-engine rule
  bool shared(model::InstrId i) const { return tables_.shared[i] != 0; }
  // Its executions before a point of the consumer's walk are known: shared, or on the consumer's
  // own engine (whose walk it is).
  bool countable(model::InstrId i) const { return shared(i) || places_.instr(i).engine == engine_; }
  const std::map<std::string, RegisterWrites>& regs_;

  std::vector<std::string> approximated_;
  std::vector<smt::Term> facts_;  // true in every reachable state (over-approximation)
  // True in addition when the impl stands at c, not held (what the last release and the next
  // barrier say about every engine), and what holds instead while the impl is held at the
  // barrier right before c (nobody has passed it).
  std::vector<smt::Term> released_;
  std::optional<smt::Term> held_;
  smt::Term released() const { return ctx_.all(released_); }
  std::vector<smt::Term> family_;  // the constant-trip histories directed runs are built from
  smt::Term impl_ok_, spec_ok_;
  std::vector<DepTerms> deps_;
  std::map<model::LoopId, smt::Term> j_;
  std::map<std::pair<model::LoopId, model::LoopId>, smt::Term> N_;
  std::map<std::tuple<model::LoopId, model::LoopId, std::uint32_t>, smt::Term> W_;
  std::map<model::LoopId, smt::Term> T_;
  std::map<model::InstrId, smt::Term> R_;
  // Whole top-level statements of one engine's signals of one semaphore, summed as one term
  // (runs.cpp, docs/prover.md "Complexity"): `early` stands for those in statements before
  // `cut`, which precede every signal of it the query names on that engine (at most `full`, all
  // of it once any later instruction of the engine has retired); `late` for those in statements
  // after the consumer's (none retired while the engine's frontier is behind a landmark).
  struct SignalSummary {
    std::string sem;
    model::EngineId engine = 0;
    std::uint32_t cut = 0;
    std::optional<smt::Term> early, late;
    std::vector<model::InstrId> early_signals;
    std::uint32_t last_early = 0;  // the top-level statement of the last of them
    // One unknown for `full` and for a register that holds it at the cut (a cut lemma); absent,
    // `full` is the sum of the early signals' counts.
    std::optional<smt::Term> full_var;
    // Every signal of sem by this engine before the cut is in `early` (none pinned, none under a
    // per-engine rule): what a cut lemma counts.
    bool whole = true;
  };
  std::vector<SignalSummary> summaries_;
  // The facts tying the summaries to the instructions the query names (after every R is known).
  void add_summary_facts();
  // A register whose value at q comes from before the cut of a summary with a cut lemma: that
  // cut and the summary's `full` unknown (registers.cpp).
  std::optional<std::pair<std::uint32_t, smt::Term>> cut_value(const std::string& reg, const Point& q,
                                                              const Found& f);
  // The top-level statement holding a point, or statement `stmt` of loop `loop`.
  std::uint32_t top_stmt(const Point& q) const { return top_stmt(q.anchor, q.stmt); }
  std::uint32_t top_stmt(model::LoopId loop, std::uint32_t stmt) const {
    return loop == model::kTop ? stmt : places_.stmt_in(model::kTop, loop);
  }
  std::map<std::pair<std::string, model::EngineId>, std::map<std::uint32_t, smt::Term>> signals_before_;
  // The semaphore whose wait's threshold is being read (encode_impl): a cut lemma lets a register
  // stand for that semaphore's early signals only. Elsewhere its value is the register's own
  // (tied to the walk), which the other facts relate to the signals they count.
  // (A register value read in such a wait is kept apart from the same register read elsewhere:
  // the wait's index, or kNoWait, is part of reg_values_' key.)
  static constexpr std::size_t kNoWait = SIZE_MAX;
  std::size_t threshold_wait_ = kNoWait;
  std::string threshold_sem_;
  // Register values already built, by register and point: a register whose last assignment reads
  // registers with long histories of their own (a base register summed along a chain of reused
  // semaphores, cells shared by liveness) is reached along many paths; each is built once.
  std::map<std::tuple<std::string, std::size_t, model::LoopId, std::uint32_t, std::uint32_t, std::uint32_t, model::EngineId>,
           Value>
      reg_values_;
};

}  // namespace syncbisim::prover::detail
