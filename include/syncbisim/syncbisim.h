#pragma once
// syncbisim's public C++ API (docs/api.md): the one header outside code includes, and the one
// door to the libraries. Load programs, allocate semaphores and compare the strategies, check an
// impl against its spec (with its coverage, or for every trip count), run one seeded execution,
// replay a trace, prove its waits for every trip count, time it on the timing model, derive
// dependencies from footprints, and fuzz and shrink with an allocator of your own: every command
// of the tool has its call here (docs/api.md lists the two conveniences that have none).
//
// Everything here is plain C++20 and the standard library; no header of the tool's
// dependencies (Z3, RapidCheck, nlohmann_json) is reached from it. Link with the CMake target
// syncbisim::syncbisim (find_package(syncbisim CONFIG)) or `pkg-config --libs syncbisim`.
//
// Errors in input (a file that does not parse, an impl that does not correspond to its spec)
// are thrown as syncbisim::Error, which carries the file, the place, the rule and the message
// that `syncbisim` prints as one line. Verdicts are values, never exceptions.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(__GNUC__)
#define SYNCBISIM_API __attribute__((visibility("default")))
#else
#define SYNCBISIM_API
#endif

namespace syncbisim {

// Bumped when a change breaks code written against an earlier version.
inline constexpr int kApiVersion = 1;
SYNCBISIM_API std::string version();  // "0.1"

// ---- errors ------------------------------------------------------------------------------

// An input error: what the command line prints as "FILE: PLACE: message [rule]".
class SYNCBISIM_API Error : public std::runtime_error {
 public:
  Error(std::string file, std::string place, std::string rule, std::string message);
  const std::string& file() const { return file_; }
  const std::string& place() const { return place_; }  // a JSON pointer or line:col ("" if none)
  const std::string& rule() const { return rule_; }    // docs/formats.md "Errors"
  const std::string& message() const { return message_; }

 private:
  std::string file_, place_, rule_, message_;
};

// Thrown by an allocator of yours to say it does not handle a spec: counted as a refusal by
// fuzz (a failure only with FuzzOptions::declined_is_failure), never as a crash.
class SYNCBISIM_API Declined : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by an allocator of yours (or a watchdog of its own, as the Python module has) that gave
// up on time: a failure of class "timeout". An in-process allocator runs in the tool's process
// and cannot be killed from outside; for a hard deadline run it as a Command.
class SYNCBISIM_API TimedOut : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---- programs ----------------------------------------------------------------------------

enum class ProgramKind { Spec, Impl };

// A spec (a program with its dependency graph) or an impl (a program with semaphores and
// registers), parsed, normalized and validated (docs/formats.md). Immutable; copies share it.
class SYNCBISIM_API Program {
 public:
  // A file's path, or the program itself (JSON or the text format): a string that names an
  // existing file is read from it, anything else is parsed as a program.
  static Program load(const std::string& path_or_text);
  static Program from_file(const std::string& path);
  // `name` stands for the file in error messages.
  static Program from_string(const std::string& text, const std::string& name = "<string>");

  ProgramKind kind() const;
  std::string to_json() const;  // canonical JSON
  std::string to_text() const;  // the text format
  std::string to_dot() const;   // a Graphviz digraph, as `syncbisim show --dot` prints it
  std::vector<std::string> engines() const;
  std::vector<std::string> instructions() const;  // datapath instruction ids, in tree order
  std::size_t dependencies() const;               // a spec's dependencies (0 for an impl)
  bool operator==(const Program& other) const;    // the same program (not only the same text)

  struct Data;  // the internals (the tool's program model), not part of the API
  explicit Program(std::shared_ptr<const Data> data);
  const Data& data() const { return *data_; }

 private:
  std::shared_ptr<const Data> data_;
};

// ---- allocation ----------------------------------------------------------------------------

// The tool's strategies (docs/allocator.md).
// Expert: paper §8.2's Manual variant, judged by the timing model (docs/allocator.md "The expert strategy").
// Mixed: per dependency the scheme with the least ALU work per issue that fits the budget (paper §6.3).
// (Mixed comes last so that the values of the others stay what they were.)
enum class Strategy { Barrier, PerInstruction, PerLoop, PerEngine, Auto, Expert, Mixed };
SYNCBISIM_API std::string to_string(Strategy s);                 // "per-loop"
SYNCBISIM_API Strategy parse_strategy(const std::string& name);  // throws Error (rule "usage")

// `syncbisim allocate`'s options (docs/allocator.md). The first two stay first, so that
// AllocateOptions{strategy, prune_registers} reads as it always has.
struct AllocateOptions {
  Strategy strategy = Strategy::Auto;
  bool prune_registers = false;  // keep only the registers some wait reads
  // The budget (docs/allocator.md "Budgets", --max-semaphores / --max-registers; Trainium 2's by
  // default): a strategy that does not fit is mixed until it does, exactness given up (and the
  // decisions saying where) only when nothing exact fits; an Error (rule "over-budget") when
  // nothing fits at all.
  std::size_t max_semaphores = 256;
  std::size_t max_registers = 64;  // on any one engine
  bool licm = true;                // paper §6.2's loop-invariant code motion of wait values (--no-licm: false)
  bool cse = true;                 // and its common-subexpression elimination (--no-cse: false)
  bool share_waits = false;        // wait values of one stream share subexpressions (--share-waits)
  bool barrier_fallback = false;   // the paper's barrier fallback outside §5.2 (--barrier-fallback)
  // Constant-trip loops unrolled first (--unroll; docs/allocator.md "Unrolling"): the impl then
  // belongs to the unrolled spec, Allocation::unrolled_spec. At most `max_unroll` instructions,
  // and dependencies, in the unrolled spec (--max-unroll; 0: no limit), else an Error.
  std::vector<std::string> unroll;
  std::uint64_t max_unroll = 20000;
  // Registers and semaphores reused by liveness (--reuse; docs/allocator.md "Reusing registers and
  // semaphores"): "auto" (when the allocation would not fit the budget otherwise), "always",
  // "never"; any other an Error (rule "usage").
  std::string reuse = "auto";
  // Threads for the independent parts of an allocation (--jobs; 0: every core); the same result
  // for any number.
  unsigned jobs = 0;
};

// What one dependency got, and why.
struct Decision {
  std::string dependency;  // "I3 -> I2 {A: 2}"
  std::string scheme;      // "per-loop", "per-instruction", "per-engine", "barrier", "fallback", "no-wait"
  std::string semaphore;   // the semaphore waited on ("" when no wait)
  std::string wait;        // the threshold ("" when no wait)
  std::string detail;      // N, K, the reason for a fallback, ...
  bool exact = true;       // false where a budget or a closed form gave up exactness (the wait is stricter: safe)
};

struct Allocation {
  Program impl;
  std::vector<Decision> decisions;  // one per dependency, in the spec's order
  std::vector<std::string> notes;   // what `allocate` prints as "note:" lines
  // With AllocateOptions::unroll: the spec allocated, its loops unrolled (what allocate --spec-out
  // writes), which the impl is checked against; absent otherwise.
  std::optional<Program> unrolled_spec;
  // Every decision exact and no barrier a budget added to recycle semaphores: the impl synchronizes
  // exactly as the spec (docs/allocator.md "Budgets").
  bool exact = true;
};

SYNCBISIM_API Allocation allocate(const Program& spec, const AllocateOptions& options = {});

// ---- resource figures (docs/allocator.md "Resource figures", `syncbisim stats`) ---------------

struct StatsOptions {
  // Iterations per trip for the executed counts, "A=3,B=4,C=else" as stats --trips ("": each
  // loop's largest trip; conds take `then`). A bad one is an Error of rule "bad-trips".
  std::string trips;
  // The budget reported against (and, for compare_strategies, allocated in), as
  // --max-semaphores / --max-registers.
  std::size_t max_semaphores = 256;
  std::size_t max_registers = 64;
  unsigned jobs = 0;  // compare_strategies: allocations at once (--jobs; 0: every core); the same result
};

// The figures of one impl, from its text alone (paper Tables 1 and 2).
struct ResourceFigures {
  std::size_t semaphores = 0;
  std::vector<std::pair<std::string, std::size_t>> registers_per_engine;  // distinct registers, per engine
  std::size_t registers_max = 0;
  std::size_t waiting_instrs = 0;  // instructions with at least one wait
  std::size_t waits = 0;
  std::size_t multi_wait_instrs = 0;  // instructions with more than one wait
  unsigned alu_max = 0;               // ALU operations computing the waits before one issue
  double alu_mean = 0;
  // Executed at the trips: absent when the count passes 2^64 - 1 (the text then says "more than ...").
  std::optional<std::uint64_t> regops_executed, barriers_executed, instrs_executed;
  std::uint64_t code_bytes = 0;          // docs/allocator.md's byte model
  std::vector<std::string> assumptions;  // "loop A: 3 iterations per trip (maximum)"
};

struct StatsResult {
  ResourceFigures figures;
  bool within_budget = true;  // the allocator's own rule: a count at the limit is within it
  std::string text, json;     // what `syncbisim stats IMPL [--json]` prints
};

// Throws Error for a spec (rule "wrong-kind") or bad trips.
SYNCBISIM_API StatsResult stats(const Program& impl, const StatsOptions& options = {});

// One strategy's row of `stats --compare`.
struct StrategyRow {
  Strategy strategy = Strategy::Auto;
  std::string over_budget;  // not empty: the strategy cannot fit the budget, and why (nothing else is set)
  ResourceFigures figures;  // the allocation as allocate() gives it
  // The same allocation without paper §6.2's LICM and CSE: what the reductions saved.
  std::size_t registers_max_before = 0;
  unsigned alu_max_before = 0;
  double alu_mean_before = 0;
  std::size_t fallback_deps = 0, inexact_deps = 0;
  bool exact = false;  // Allocation::exact
  // The makespan of the impl on the timing model, as simulate() gives it with the default costs
  // and trips; absent where the model deadlocks or stops at its limit, `cycles_why` saying so.
  std::optional<std::uint64_t> cycles;
  std::string cycles_why;
};

struct StrategyComparison {
  std::vector<StrategyRow> rows;  // barrier, per-instruction, per-loop, per-engine, auto, mixed, expert
  std::string text, json;         // what `syncbisim stats --compare SPEC [--json]` prints
};

// The spec allocated with every strategy (`syncbisim stats --compare`). Throws Error for an impl,
// bad trips, or an allocation that fails other than by the budget.
SYNCBISIM_API StrategyComparison compare_strategies(const Program& spec, const StatsOptions& options = {});

// ---- dependencies from footprints (docs/footprints.md) --------------------------------------

// One dependency derived from what instructions read, write and accumulate.
struct DerivedDependency {
  std::string dependency;          // "mm -> load_w distance n=1, k=*"
  std::string producer, consumer;
  std::string carried_by;          // the common loop carrying its conflicts, "" for the same iteration
  std::vector<std::string> why;    // one conflict per access pair: "RAW on t[0, 0]: load (i=0) writes ..."
  std::string distances;           // "" when the conflicts' distances are one vector, else their range
  std::string over_synchronizes;   // "" or where the cumulative wait owes more than conflicts need
  std::string implied_by;          // "" when kept; else what implies it for every trip count
};

struct SYNCBISIM_API Derivation {
  Program spec;                                  // the spec with the derived (kept) graph
  std::vector<DerivedDependency> dependencies;   // kept and implied
  std::vector<std::string> undecided;            // questions ISL left open (the graph is incomplete)
  std::string text;         // what `syncbisim deps` prints: the spec's text, each derived dependency with its conflict
  std::string json;         // what `syncbisim deps --json` prints: the spec as JSON
  std::string report;       // what `syncbisim deps` writes to stderr: every dependency with the conflicts behind it
  int exit_status() const;  // 0, or 3 when some question was left undecided (as `deps`)
};

// Throws Error (rule "no-footprints") for a spec without footprints.
SYNCBISIM_API Derivation derive_dependencies(const Program& spec, bool reduce = true);

struct Race {
  std::string producer, consumer;
  std::string conflict;  // "RAW on s[0, 0]: evac (i=0) writes s[i mod 2, :], then store (i=0) reads ..."
  std::string trips;     // where the enumerator found it
  std::string fix;       // "add dep evac -> store"
  bool missing = true;   // no written dependency between the two (else its distance is too large)
};

// The spec's written graph judged against its footprints (`syncbisim deps --compare`).
struct SYNCBISIM_API GraphComparison {
  std::string verdict;  // "ordered", "race", "inconclusive"
  std::vector<Race> races;
  // "dep: message"; an over-synchronizing one's message ends with its price on the timing model
  std::vector<std::string> unjustified, over_synchronized, implied;
  std::vector<std::string> not_shown;  // derived dependencies not shown implied for every trip count
  std::vector<std::string> limits;
  std::uint64_t race_pairs = 0;  // conflicting instance pairs left unordered, over every plan tried
  std::string text, json;        // what `syncbisim deps --compare [--json]` prints
  int exit_status() const;       // 0 ordered, 1 race, 3 inconclusive
};
SYNCBISIM_API GraphComparison compare_dependencies(const Program& spec);

// ---- checking ------------------------------------------------------------------------------

// Overflow: a register or semaphore value passes its width (docs/semantics.md "Widths").
enum class Verdict { Bisimilar, OverSynchronized, UnderSynchronized, SpecDeadlock, Inconclusive, Overflow };
SYNCBISIM_API std::string to_string(Verdict v);  // "under-synchronized"

// How the exhaustive search keeps its visited set (docs/checker.md "State storage", check
// --state-store): flat tuples, or trees (fewer bytes a state). The same states and traces.
enum class StateStore { Flat, Tree };
SYNCBISIM_API std::string to_string(StateStore s);                   // "tree"
SYNCBISIM_API StateStore parse_state_store(const std::string& name);  // throws Error (rule "usage")

struct CheckOptions {
  std::uint64_t max_states = 0;    // 0: no limit; hitting one makes the verdict inconclusive
  double max_seconds = 0;          // 0: no limit
  std::uint32_t max_trip = 0;      // cap every dynamic range trip at K (0: no cap; a cap that cuts is a limit)
  std::uint64_t random_walks = 0;  // > 0: that many seeded random walks instead of the exhaustive search
  std::uint64_t seed = 1;
  std::uint64_t depth = 100000;  // steps per random walk at most
  bool reduction = true;         // the sound reductions of docs/checker.md
  // The hardware's widths (docs/semantics.md "Widths"), as check --register-bits / --semaphore-bits:
  // registers of 1..64 bits, signed semaphores of 2..64 bits; outside those, check() throws.
  unsigned register_bits = 32;
  unsigned semaphore_bits = 32;
  StateStore state_store = StateStore::Flat;
  // check --coverage (docs/checker.md "Coverage"): count what each dependency and each wait did
  // over the explored states (CheckResult::coverage). The search then runs on one thread, as the
  // command's does: the coverage counts states as one search visits them.
  bool coverage = false;
  // check --svg: draw the counterexample (the violation that decides the verdict) as an SVG
  // timeline into CheckResult::svg.
  bool svg = false;
};

// One visible step of a trace, as `check --json` writes it, or one event of a run (run()).
// The last step of a violation's trace is "part" (engine and instr: where the two sides part) or
// "stuck" (a deadlock), as docs/schema/trace.schema.json says.
struct TraceStep {
  std::string step;    // "issue", "retire", "commit", "choose"; last "part" or "stuck"
  std::string engine;  // "" for a choice that no engine owns
  std::string instr;   // the instruction issued or retired, or the loop chosen for (a run's
                       // events: also the loop entered or left, a register operation's text)
  std::string value;   // a choice's value, a commit's position ("" otherwise)
  std::string detail;  // a run's events: the numbers worth showing ("r_A=2", "A #2", an issue's
                       // waits); "" in a check's trace
};

struct Violation {
  std::string kind;         // "under-sync", "over-sync", "deadlock", "overflow"
  std::string engine;       // the engine whose next instruction it is about
  std::string instr;        // that instruction ("" for a deadlock with none in front)
  std::string description;  // both sides' numbers, for a person
  std::string dependency;   // "I3 -> I2 {A: 2}" (under- and over-sync; "" otherwise)
  // The spec's side: retirements of the producer and the count owed; the impl's: the
  // semaphore, its value and the wait's threshold. Absent where they do not apply.
  std::optional<std::uint64_t> retired, owed, value, threshold;
  std::string semaphore;
  // Under- and over-sync: what the parting state asks of the impl ("the wait needs s0 >= 2 at
  // least ...", docs/checker.md "Naming the fix"), and the per-loop closed form of the deciding
  // dependency ("per-loop s_A_E0 N=2 K=2, wait s_A_E0 >= 2 * r_A"; "" when it has none).
  std::string fix, closed_form;
  bool spec_deadlocks_too = false;  // deadlock: the spec is stuck there as well
  std::vector<TraceStep> trace;     // a shortest trace from the initial state
};

// What one dependency of the spec did over the explored states (check --coverage). One that never
// holds its consumer back at these trips hides any bug in its wait (raise the trips).
struct DependencyCoverage {
  std::string producer, consumer;
  std::string distance;       // "A: 2, B: *" as the coverage text writes it ("" for none)
  std::uint64_t reached = 0;  // states with the consumer next on its engine
  std::uint64_t owed = 0;     // ... and something owed (its target did not underflow)
  std::uint64_t held = 0;     // ... and not satisfied: it held its consumer back (held > 0: it ever did)
  // As the coverage text sorts it: "held" (held its consumer back), "owed" (only owed: its producer
  // was always ahead), "never-owed" (every target underflows at these trips), "not-reached".
  std::string finding;
};

// What one wait of the impl did over the explored states. One that never blocks may be redundant.
struct WaitCoverage {
  std::string engine, instr, semaphore;
  std::string threshold;      // what the wait compares with: a register, or a constant in decimal
  std::uint64_t reached = 0;  // states with the instruction next on its engine in the impl
  std::uint64_t blocked = 0;  // ... and this wait did not hold
};

struct Coverage {
  std::uint64_t states = 0;                      // states counted
  std::vector<DependencyCoverage> dependencies;  // in the spec's order
  std::vector<WaitCoverage> waits;               // in the impl's order, an instruction's waits in order
};

struct SYNCBISIM_API CheckResult {
  Verdict verdict = Verdict::Bisimilar;
  bool exhaustive = true;
  std::string limit;  // the limit that was hit ("max-states 1000"), if any
  std::uint64_t states = 0, transitions = 0;
  double seconds = 0;
  std::vector<Violation> violations;
  // What `syncbisim check [--coverage]` prints: the report, an over-synchronization's price on
  // the timing model, and with CheckOptions::coverage the coverage after a blank line.
  std::string text;
  std::string json;  // what `syncbisim check [--coverage] --json` prints
  // With CheckOptions::coverage: the counts, the coverage part of the text (as `check --coverage`
  // prints it after the report), and the JSON object `check --coverage --json` has as "coverage".
  std::optional<Coverage> coverage;
  std::string coverage_text, coverage_json;
  // What check --trace-out writes: every violation's whole trace, internal steps included
  // (traces/1, docs/schema/trace.schema.json).
  std::string traces;
  // With CheckOptions::svg: what check --svg writes ("" when there is no violation to draw).
  std::string svg;
  int exit_status() const;  // 0 bisimilar, 1 a violation, 3 inconclusive (docs/formats.md)
};

// Throws Error if the two programs are not a spec and an impl that correspond. A spec with
// footprints is checked against its written graph; `check` judges that graph first (a race is its
// verdict), which compare_dependencies() does here.
SYNCBISIM_API CheckResult check(const Program& spec, const Program& impl, const CheckOptions& options = {});

// ---- replaying a trace (docs/checker.md "Replay", `syncbisim replay`) ------------------------

struct ReplayOptions {
  std::size_t violation = 0;  // which trace of the file (1-based; 0: the first), as --violation
  // The widths the trace was found at (an overflow shows only there), as for check().
  unsigned register_bits = 32;
  unsigned semaphore_bits = 32;
  bool svg = false;  // draw the replayed counterexample (ReplayResult::svg), as --svg
};

// One visible step of the trace, with what it changed on both sides.
struct ReplayStep {
  std::size_t number = 0;            // 1-based
  std::string step;                  // "issue E1 C"
  std::vector<std::string> changes;  // "impl E1: r_B 2 -> 3", "s_B_E0 0 -> 1", "R(P) 0 -> 1", ...
  std::string checks;                // at an issue: both sides' numbers
};

struct SYNCBISIM_API ReplayResult {
  bool fits = true;  // false: the trace does not fit the pair, `misfit` says where and why
  std::string misfit;
  std::vector<ReplayStep> steps;
  std::vector<std::string> violations;  // at the end: "under-sync", "over-sync", "deadlock", "overflow"
  std::optional<bool> reproduced;       // when the trace ends with a violation: whether the end shows it
  std::string text, json;               // what `syncbisim replay [--json]` prints
  std::string svg;  // with ReplayOptions::svg: what replay --svg writes ("" when it fits with no violation)
  int exit_status() const;              // 0 no violation at the end, 1 one, 2 the trace does not fit
};

// A trace that check, prove, fuzz or shrink wrote, replayed step by step on the pair: `trace` is
// the file's JSON text, or a path to it (a string without '{' or '[' naming an existing file).
// Throws Error for a trace that does not parse or has no such violation, and as check() does.
SYNCBISIM_API ReplayResult replay(const Program& spec, const Program& impl, const std::string& trace,
                                  const ReplayOptions& options = {});

// ---- proving -------------------------------------------------------------------------------

enum class Answer { Proved, Refuted, Unknown };
SYNCBISIM_API std::string to_string(Answer a);

// One property of a consumer (docs/prover.md): `safe`, it never issues before its dependencies
// are satisfied, or `exact`, it never waits when nothing is owed.
struct PropertyProof {
  Answer answer = Answer::Unknown;
  std::string reason;              // unknown: why (which register, which statement); refuted: a summary
  std::vector<TraceStep> witness;  // refuted: a concrete execution to the violation, ending with "part"
};

struct ConsumerProof {
  std::string instr, engine;
  Answer answer = Answer::Unknown;  // refuted if either property is, proved if both are
  PropertyProof safe, exact;
  double seconds = 0;
};

struct ProveOptions {
  unsigned z3_timeout_ms = 10000;  // per query
  bool replay = true;              // replay counterexamples with the explorer (else they stay unknown)
  // The hardware's widths (docs/semantics.md "Widths"), as prove --register-bits / --semaphore-bits:
  // the prover asks whether any register or semaphore passes them (docs/prover.md "Overflow"), an
  // overflow refutes. Registers of 1..64 bits, signed semaphores of 2..64 bits; outside those,
  // prove() throws.
  unsigned register_bits = 32;
  unsigned semaphore_bits = 32;
  // Consumers proved at once, each on a thread of its own (prove --jobs; 0 counts as 1): the
  // result is the same for any number, gathered in consumer order.
  unsigned jobs = 1;
};

struct SYNCBISIM_API ProveResult {
  Answer verdict = Answer::Proved;
  std::vector<ConsumerProof> consumers;
  double seconds = 0;
  std::string text, json;   // what `syncbisim prove [--json]` prints
  std::string traces;       // what prove --trace-out writes: every witness's whole trace
  int exit_status() const;  // 0 proved, 1 refuted, 3 unknown
};

SYNCBISIM_API ProveResult prove(const Program& spec, const Program& impl, const ProveOptions& options = {});

// ---- every trip count (`syncbisim check --all-trips`, docs/prover.md "check --all-trips") -------

struct AllTripsOptions {
  std::uint32_t max_trip = 3;      // the explorer's trip cap (--max-trip; 0 counts as 3)
  unsigned z3_timeout_ms = 10000;  // the prover's, per query
  unsigned jobs = 1;               // consumers proved at once (the command's --threads; 0 counts as 1): the same result
  // Seconds the whole call may take (0: no limit), as --max-seconds: the prover's queries and
  // directed runs are cut to it, the explorer gets what is left, and a limit hit makes the
  // verdict inconclusive. Unlike the command, nothing stops a Z3 query from outside.
  double max_seconds = 0;
  std::uint64_t max_states = 0;  // the explorer's (0: no limit)
  // The widths, as for check() and prove(): the explorer's overflows and the prover's questions.
  unsigned register_bits = 32;
  unsigned semaphore_bits = 32;
};

struct SYNCBISIM_API AllTripsResult {
  Verdict verdict = Verdict::Inconclusive;
  bool all_trip_counts = false;         // the verdict (bisimilar) holds for every trip count
  std::string verdict_line;             // "bisimilar for all trip counts", or the verdict's word: the text's first line
  std::string found_by;                 // "prover" or "explorer": where a violation's trace comes from
  std::vector<std::string> not_proved;  // "C (E1): exact unknown: ...": what keeps it from every trip count
  ProveResult prover;                   // the prover's part, for every trip count (its own text and json)
  CheckResult explorer;                 // the explorer's part, at the capped trips (json with "trip_cap")
  std::uint32_t trip_cap = 3;
  std::string text, json;   // what `syncbisim check --all-trips [--json]` prints
  int exit_status() const;  // as check's: 0 bisimilar, 1 a violation, 3 inconclusive
};

// One verdict for every trip count: the prover on every consumer plus the explorer at trips capped
// at max_trip. `bisimilar for all trip counts` only when both agree. Throws Error as check() does.
SYNCBISIM_API AllTripsResult check_all_trips(const Program& spec, const Program& impl,
                                             const AllTripsOptions& options = {});

// ---- one execution (`syncbisim run`) -----------------------------------------------------------

enum class RunOutcome { Finished, Deadlock, Mismatch, StepLimit, Overflow };
SYNCBISIM_API std::string to_string(RunOutcome o);  // "finished", "deadlock", "mismatch", "step-limit", "overflow"

struct RunOptions {
  std::uint64_t seed = 1;          // the scheduler's (--seed): the same seed, the same run
  std::size_t max_steps = 100000;  // random steps at most, then StepLimit (--max-steps)
  bool visible_only = false;       // events, text and json: issue, retire and choices only (--visible-only)
  // With an impl: a trace (its JSON text, or a path, as replay() takes it) whose steps are taken
  // first, then at random from its end (--from); an Error of rule "trace-misfit" when it does not
  // fit the pair, of rule "usage" without an impl.
  std::string from;
  // The impl's widths: a value past them ends the run with Overflow.
  unsigned register_bits = 32;
  unsigned semaphore_bits = 32;
  bool svg = false;  // with an impl: draw the run as an SVG timeline (RunResult::svg), as --svg
};

struct SYNCBISIM_API RunResult {
  RunOutcome outcome = RunOutcome::Finished;
  std::vector<TraceStep> events;  // internal ones too, unless visible_only; `detail` has their numbers
  // Mismatch: where the two sides part (kind "under-sync" or "over-sync", engine, instr, both sides'
  // numbers, dependency, fix; `trace` empty: the run is `events`).
  std::optional<Violation> mismatch;
  std::vector<std::string> stuck;      // Deadlock: the engines not finished
  std::vector<std::string> overflows;  // Overflow: what passed its width, for a person
  std::string limit;                   // StepLimit: the limit that stopped it, when not max_steps
  std::string text, json;              // what `syncbisim run SPEC [IMPL] [--json]` prints
  std::string svg;                     // with RunOptions::svg and an impl: what run --svg writes
  int exit_status() const;             // 0 finished, 3 step limit, 1 otherwise
};

// The spec alone, under a seeded random scheduler.
SYNCBISIM_API RunResult run(const Program& spec, const RunOptions& options = {});
// Spec and impl in lock step, stopping at the first mismatch. Throws Error as check() does.
SYNCBISIM_API RunResult run(const Program& spec, const Program& impl, const RunOptions& options = {});

// ---- the timing model (docs/timing.md) -------------------------------------------------------

struct SimulateOptions {
  // Iterations per trip, "A=3,B=4,C=else" as simulate --trips ("": each loop's sim_trip, else its rule).
  std::string trips;
  // A cost table (docs/timing.md "Costs"): a file's path or the table's JSON; at most one of the
  // two ("" both: the built-in Trainium2 table, as without --costs).
  std::string costs_file, costs_json;
  bool svg = false;       // draw the timeline (SimulateResult::svg), as --svg
  std::string svg_range;  // "FROM:TO" in cycles, as --svg-range ("": the start, up to 80 instructions)
};

struct EngineTime {
  std::string engine;
  std::uint64_t busy = 0;     // pipeline held or sequencer working
  std::uint64_t stalled = 0;  // at a wait whose semaphore is short
  std::uint64_t barrier = 0;  // at a barrier
  std::uint64_t idle = 0;     // the rest of the makespan
  std::uint64_t finish = 0;   // its last retirement or step
};

// The stall cycles one wait caused, over all its issues.
struct Stall {
  std::string instr, engine, semaphore;
  std::uint64_t cycles = 0, issues = 0, longest = 0;
};

struct SYNCBISIM_API SimulateResult {
  std::uint64_t makespan = 0;  // cycles
  double clock_ghz = 0;
  bool deadlock = false;
  std::string deadlock_detail;     // who waits for what
  std::string limit;               // the model stopped at its step limit: the figures are those so far
  std::vector<std::string> trips;  // the trips run, "A=3"
  std::vector<EngineTime> engines;
  std::uint64_t instrs_issued = 0, regops = 0, branches = 0, barriers = 0;
  std::vector<Stall> stalls;  // longest total first
  // The spec's instructions with no op: each costs its engine's default (simulate's note).
  std::vector<std::string> without_op;
  std::string svg;  // with SimulateOptions::svg: the timeline picture
  // With svg: where the next page starts (cycles) when the range held more than a page of
  // instructions (simulate's note; --svg-range NEXT:TO draws it).
  std::optional<std::uint64_t> svg_next_page;
  std::string text, json;   // what `syncbisim simulate [--json]` prints
  int exit_status() const;  // 0, 1 deadlock, 3 limit
};

// The impl on the timing model (`syncbisim simulate SPEC IMPL`). Throws Error as check() does, and
// for bad trips, costs or range.
SYNCBISIM_API SimulateResult simulate(const Program& spec, const Program& impl, const SimulateOptions& options = {});

// `syncbisim table2`'s options.
struct Table2Options {
  std::vector<std::string> unroll;     // also give each spec a row with these loops unrolled first (--unroll)
  std::uint64_t max_unroll = 100000;   // instructions, and dependencies, an unrolled program may have (0: no limit)
  std::string costs_file, costs_json;  // a cost table, as SimulateOptions
  bool derived = false;                // a spec with footprints gets its derived graph first (--derived)
  // With no spec given: the corpus directory whose kernels make the paper's rows (--corpus); an
  // Error (rule "usage") when empty.
  std::string corpus;
};

// One variant's figures on the timing model.
struct VariantFigures {
  std::string variant;  // "barrier", "per-loop", "per-instruction", "per-engine", "unrolled"
  bool available = false;
  std::string why_not;  // when not available
  double lat = 0;       // makespan / the barrier-based makespan
  std::uint64_t makespan = 0, code_bytes = 0;
  std::size_t regs = 0, sema = 0;
  bool deadlock = false;
};

// The paper's figures for one of its columns, as printed.
struct PaperFigures {
  std::string variant;  // "barrier", "barrier-free", "manual", "unrolled"
  bool available = false;
  double lat = 0;
  std::string code;  // "2.5 KB"
  int regs = 0, sema = 0;
};

struct Table2Row {
  std::string kernel;  // the file's stem, "+L" per loop unrolled first, " (derived)"
  std::string title;
  std::size_t loops = 0;
  std::string offsets;
  std::vector<std::string> trips;
  std::vector<VariantFigures> ours;  // barrier, per-loop, per-instruction, per-engine, unrolled
  std::string paper_benchmark;       // "" when the paper has no such row
  std::vector<PaperFigures> paper;   // barrier, barrier-free, manual, unrolled
};

struct Table2Result {
  std::vector<Table2Row> rows;
  std::string text, json;  // what `syncbisim table2 [--json]` prints
};

// The paper's Table 2 on the timing model (`syncbisim table2`): a row per spec (named by its
// file's stem), or with no spec the corpus kernels at the paper's scale.
SYNCBISIM_API Table2Result table2(const std::vector<Program>& specs, const Table2Options& options = {});

// ---- your allocator ------------------------------------------------------------------------

// An allocator of yours, in-process: gets the spec as canonical JSON and returns the impl as
// JSON or the text format. Throw Declined to decline a spec; any other exception is a failure
// of class "allocator-error". Called from several threads at once when FuzzOptions::jobs > 1.
using Allocator = std::function<std::string(const std::string& spec_json)>;

// An allocator of yours as a command (docs/fuzzing.md "An allocator as a command").
struct Command {
  std::string command;          // run under /bin/sh -c
  double timeout_seconds = 10;  // then its process group is killed (a "timeout" failure)
};

// Asks a running campaign to stop from another thread (or a signal watcher): no new run starts,
// a command in flight is killed, and the result holds what was found (`interrupted`).
class SYNCBISIM_API StopToken {
 public:
  StopToken();
  void request() const;
  bool requested() const;
  struct State;
  const State& state() const { return *state_; }

 private:
  std::shared_ptr<State> state_;
};

// ---- fuzzing -------------------------------------------------------------------------------

// Degenerate: the mixed draw without swarm or liveness, specs where nothing can bind included
// (docs/fuzzing.md "What a campaign draws").
enum class SpecMix { Allocatable, Arbitrary, Mixed, Degenerate };

struct FuzzOptions {
  std::uint64_t runs = 100, seed = 1, start = 0;  // runs start .. start + runs - 1; run r from (seed, r) alone
  SpecMix specs = SpecMix::Mixed;
  int max_size = 100;                // the generator's size bound
  std::uint64_t max_states = 20000;  // per check; a run that hits it is inconclusive
  std::uint64_t max_failures = 0;    // stop after this many (0: run them all)
  bool exact = true;                 // over-synchronization counts (an allocator that claims exactness)
  bool declined_is_failure = false;
  bool shrink = true;  // minimize every failure (timeouts aside)
  std::uint64_t shrink_max_steps = 2000;
  double shrink_max_seconds = 30;  // 0: no limit (the result then does not depend on speed)
  unsigned jobs = 1;               // runs at once; the result is the same for any number
  std::string out;                 // write each failure's files to this directory as soon as it is final
  StopToken stop;
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;  // after every run
};

struct FuzzFailure {
  std::uint64_t run = 0, seed = 0;
  std::string failure_class;    // "under-sync", "over-sync", "deadlock", "crash", "timeout", "bad-output",
                                // "tree-mismatch", "declined", "allocator-error"
  std::string failure;          // the message
  Program spec;                 // minimized if it was shrunk
  std::optional<Program> impl;  // when the allocator gave one that loads
  std::string allocator_output, allocator_errors;  // what a command printed
  std::string before, after;                       // sizes before and after shrinking ("" if not shrunk)
  std::string files;                               // the file stem written under FuzzOptions::out
  std::string repro;                               // the one-line reproduction
};

struct FuzzNote {
  std::uint64_t run = 0, seed = 0;
  std::string why;
};

struct SYNCBISIM_API FuzzResult {
  std::uint64_t runs = 0, passed = 0, failures = 0, declined = 0, inconclusive = 0, skipped = 0;
  double seconds = 0;
  bool interrupted = false;
  std::vector<FuzzFailure> failed;
  std::vector<FuzzNote> declines, inconclusive_runs;
  std::string text, json;   // what `syncbisim fuzz [--json]` prints
  int exit_status() const;  // 1 with failures, else 3 if interrupted, else 0
};

// A campaign (docs/fuzzing.md): run r draws a spec from (seed, r), the allocator allocates it,
// the pair is checked exhaustively under max_states, and every failure is minimized and written.
SYNCBISIM_API FuzzResult fuzz_allocator(const Allocator& allocator, const FuzzOptions& options = {});
SYNCBISIM_API FuzzResult fuzz_allocator(const Command& allocator, const FuzzOptions& options = {});
SYNCBISIM_API FuzzResult fuzz_allocator(Strategy allocator, const FuzzOptions& options = {});

// The specs a campaign with these options hands its allocator, run by run (`syncbisim gen`).
// A run whose generator gave up is left out (the campaign skips it too).
SYNCBISIM_API std::vector<Program> generate(const FuzzOptions& options);

// ---- shrinking -----------------------------------------------------------------------------

struct ShrinkOptions {
  std::uint64_t max_steps = 5000;     // candidates checked (0: no limit)
  double max_seconds = 60;            // 0: no limit
  std::uint64_t max_states = 100000;  // per check
  bool declined_is_failure = false;   // with an allocator: a refusal is the failure to keep
  bool keep_spec = false;             // with an impl: shrink only the impl
  bool free = false;                  // let a kept dependency change its kind (docs/fuzzing.md "The shrinker")
  StopToken stop;
};

struct ShrinkResult {
  std::string failure_class, failure;  // the failure kept, on the minimized case
  Program spec;
  std::optional<Program> impl;                     // absent when the allocator gave none
  std::string allocator_output, allocator_errors;  // with an allocator: its answer on the minimized spec
  std::string before, after;
  std::uint64_t steps = 0, kept = 0, cache_hits = 0;
  double seconds = 0;
  std::string stopped;  // "" at a fixpoint, else the budget that ran out
  std::string text;     // what `syncbisim shrink` prints
  std::string json;     // the same as one JSON document
};

// A failing pair, edited together. Throws Error (rule "no-failure") if it shows none.
SYNCBISIM_API ShrinkResult shrink(const Program& spec, const Program& impl, const ShrinkOptions& options = {});
// A spec whose allocation fails: every candidate is allocated afresh.
SYNCBISIM_API ShrinkResult shrink(const Program& spec, const Allocator& allocator, const ShrinkOptions& options = {});
SYNCBISIM_API ShrinkResult shrink(const Program& spec, const Command& allocator, const ShrinkOptions& options = {});
SYNCBISIM_API ShrinkResult shrink(const Program& spec, Strategy allocator, const ShrinkOptions& options = {});

}  // namespace syncbisim
