#pragma once
// syncbisim's public C++ API (docs/api.md): the one header outside code includes, and the one
// door to the libraries. Load programs, allocate semaphores, check an impl against its spec,
// prove its waits for every trip count, and fuzz and shrink with an allocator of your own.
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
enum class Strategy { Barrier, PerInstruction, PerLoop, PerEngine, Auto, Expert };
SYNCBISIM_API std::string to_string(Strategy s);                 // "per-loop"
SYNCBISIM_API Strategy parse_strategy(const std::string& name);  // throws Error (rule "usage")

struct AllocateOptions {
  Strategy strategy = Strategy::Auto;
  bool prune_registers = false;  // keep only the registers some wait reads
};

// What one dependency got, and why.
struct Decision {
  std::string dependency;  // "I3 -> I2 {A: 2}"
  std::string scheme;      // "per-loop", "per-instruction", "per-engine", "barrier", "fallback"
  std::string semaphore;   // the semaphore waited on ("" when no wait)
  std::string wait;        // the threshold ("" when no wait)
  std::string detail;      // N, K, the reason for a fallback, ...
};

struct Allocation {
  Program impl;
  std::vector<Decision> decisions;  // one per dependency, in the spec's order
  std::vector<std::string> notes;
};

SYNCBISIM_API Allocation allocate(const Program& spec, const AllocateOptions& options = {});

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

struct Derivation {
  Program spec;                                  // the spec with the derived (kept) graph
  std::vector<DerivedDependency> dependencies;   // kept and implied
  std::vector<std::string> undecided;            // questions ISL left open (the graph is incomplete)
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
struct GraphComparison {
  std::string verdict;  // "ordered", "race", "inconclusive"
  std::vector<Race> races;
  std::vector<std::string> unjustified, over_synchronized, implied;  // "dep: message"
  std::vector<std::string> not_shown;  // derived dependencies not shown implied for every trip count
  std::vector<std::string> limits;
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
};

// One visible step of a trace, as `check --json` writes it.
// The last step of a violation's trace is "part" (engine and instr: where the two sides part) or
// "stuck" (a deadlock), as docs/schema/trace.schema.json says.
struct TraceStep {
  std::string step;    // "issue", "retire", "commit", "choose"; last "part" or "stuck"
  std::string engine;  // "" for a choice that no engine owns
  std::string instr;   // the instruction issued or retired, or the loop chosen for
  std::string value;   // a choice's value ("" otherwise)
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
  bool spec_deadlocks_too = false;  // deadlock: the spec is stuck there as well
  std::vector<TraceStep> trace;     // a shortest trace from the initial state
};

struct SYNCBISIM_API CheckResult {
  Verdict verdict = Verdict::Bisimilar;
  bool exhaustive = true;
  std::string limit;  // the limit that was hit ("max-states 1000"), if any
  std::uint64_t states = 0, transitions = 0;
  double seconds = 0;
  std::vector<Violation> violations;
  std::string text;         // what `syncbisim check` prints
  std::string json;         // what `syncbisim check --json` prints
  int exit_status() const;  // 0 bisimilar, 1 a violation, 3 inconclusive (docs/formats.md)
};

// Throws Error if the two programs are not a spec and an impl that correspond.
SYNCBISIM_API CheckResult check(const Program& spec, const Program& impl, const CheckOptions& options = {});

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
  int exit_status() const;  // 0 proved, 1 refuted, 3 unknown
};

SYNCBISIM_API ProveResult prove(const Program& spec, const Program& impl, const ProveOptions& options = {});

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

enum class SpecMix { Allocatable, Arbitrary, Mixed };

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
