#pragma once
// The Z3 prover (docs/prover.md): for every consumer c, at every reachable moment c is next to
// issue, for every trip count and history, are c's waits safe (the impl never issues c before
// its dependencies are satisfied) and exact (the impl never waits once they are)? Two Z3 queries
// per consumer. `proved` only when the violation is unsatisfiable under facts true in every
// reachable state; `refuted` only with a concrete execution the semantics reproduce, found by a
// directed run (prover/directed.h) from the Z3 model. Z3 stays inside prover/detail: this header
// exposes plain types.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/program_pair.h"
#include "model/index.h"
#include "model/program.h"
#include "model/value_width.h"
#include "semantics/lockstep.h"

namespace syncbisim::prover {

enum class Answer : std::uint8_t { Proved, Refuted, Unknown };
const char* to_string(Answer a);
// formats.md: 0 proved, 1 refuted, 3 unknown.
int exit_status(Answer a);

// What the Z3 model said, turned into numbers a person can read.
struct Counterexample {
  std::map<std::string, std::uint64_t> trips;      // loop -> constant trip count (branch loops: 0/1)
  std::map<std::string, std::uint64_t> iteration;  // loops around c -> current iteration
  std::map<std::string, std::uint64_t> retired;    // instruction -> R
};

// A concrete execution of the pair (the original programs, every choice a step of the trace)
// that ends where the two sides disagree on issuing the consumer.
struct Witness {
  std::string kind;                    // "under-sync" or "over-sync"
  std::string description;             // both sides' numbers at the last state
  std::vector<semantics::Step> trace;  // visible steps from the initial state
  // The witness's length. A run longer than ProveOptions::max_witness_steps is a refutation all
  // the same (every step of it was taken), but its trace is not built: `trace` is empty.
  std::uint64_t steps = 0;
  bool trace_built = true;
  std::map<std::string, std::uint32_t> chosen;  // without a trace: the largest trip chosen per loop
  semantics::Mismatch mismatch;                 // at the last state
  // The consumer engine's iteration of the loops around the consumer there (when the impl holds
  // it at a barrier, the iteration before the loop control that leads to the consumer).
  std::vector<std::pair<std::string, std::uint32_t>> iteration;  // outermost loop first
  std::string found_by;                                          // "directed run" or "explorer" (a shorter trace)
};

// One property of one consumer: safe (no under-synchronization) or exact (no over-).
struct Property {
  Answer answer = Answer::Unknown;
  std::string reason;  // unknown: why; refuted: a one-line summary
  std::optional<Counterexample> model;
  std::optional<Witness> witness;  // refuted
};

struct ConsumerResult {
  std::string instr, engine;
  Property safe, exact;
  Answer answer = Answer::Unknown;  // refuted if either is, proved if both are
  double seconds = 0;
};

// One overflow question (docs/prover.md "Overflow"): can a register of an engine, or a
// semaphore, hold a value past what its hardware width holds, for some trip count and history?
struct OverflowResult {
  std::string kind;                     // "register" or "semaphore"
  std::string name;                     // the register or semaphore
  std::string engine;                   // the register's engine; for a semaphore, the signalling engine named in `at`
  std::string at;                       // refuted or unknown: the write ("r := r + 1") or the signalling instruction
  std::uint64_t max = 0;                // the largest value the width holds
  Answer answer = Answer::Proved;       // refuted: a value past max; proved: never; unknown: see reason
  std::string reason;                   // unknown: why not decided; refuted: a one-line summary
  std::string value;                    // refuted: the value there (decimal; may exceed 64 bits)
  std::optional<Counterexample> model;  // refuted: the trips and the iteration that reach it
  // Refuted: a run of the pair to the overflow (the value past max in its last state), when it is
  // at most ProveOptions::overflow_trace_max_steps long; otherwise empty, and `no_trace` says why.
  std::vector<semantics::Step> trace;
  bool traced = false;
  std::string no_trace;
  std::string found_by;  // "trip bounds" (proved without Z3), "z3"
  double seconds = 0;
};

struct ProveResult {
  Answer verdict = Answer::Proved;
  // Instructions with a dependency or a wait, and those the impl may hold at a barrier while
  // the spec could issue them (docs/prover.md "Consumers"), in tree order.
  std::vector<ConsumerResult> consumers;
  // Registers and semaphores past their widths (ProveOptions::widths), one per register of an
  // engine and per semaphore, in name order; empty with ProveOptions::overflow off.
  std::vector<OverflowResult> overflows;
  model::ValueWidths widths;
  double seconds = 0;
  // Empty when neither the spec nor a barrier of the impl is shown able to deadlock for any trip
  // count (analysis/deadlock_freedom.h); else why not ("the spec: ..." or "the impl: ..."). The
  // consumers' answers say nothing about either: the spec's own deadlocks are not violations of
  // the impl (the verdict may still be proved: the impl deadlocks exactly where the spec does),
  // and a barrier under a per-engine rule may hold an engine with no instruction after it (the
  // verdict is then never proved). No verdict for every trip count may say bisimilar on the
  // consumers alone then (issue 43).
  std::string may_deadlock;
  // The pair the witnesses run on (to render or replay them).
  std::shared_ptr<const checker::ProgramPair> pair;
};

struct ProveOptions {
  unsigned z3_timeout_ms = 10000;
  bool replay = true;                           // without it a satisfiable violation is `unknown`
  std::uint64_t directed_max_steps = 50000000;  // per directed run
  double directed_max_seconds = 30;
  // The longest witness whose trace is kept (12 bytes a step: 12 MB; rendering, replaying and
  // writing it stay in seconds). docs/prover.md "Refutations".
  std::uint64_t max_witness_steps = 1000000;
  // The explorer tries to shorten a witness when the trips are small (docs/prover.md).
  std::uint64_t shorten_max_states = 200000;
  double shorten_max_seconds = 5;
  // The overflow questions (docs/prover.md "Overflow"), at these widths.
  bool overflow = true;
  model::ValueWidths widths;
  // An overflow's trace is built only up to this many steps (a counter passing 2^31 would need
  // billions); past it the finding names the trips and says that no trace was built.
  std::uint64_t overflow_trace_max_steps = 1000000;
  // Consumers proved at once, each on its own thread with its own Z3 contexts; the results are
  // the same for any number (gathered in consumer order).
  unsigned jobs = 1;
  // Each consumer first on its thread's shared Z3 solver, kept only when every query is
  // unsatisfiable (docs/prover.md "Complexity"); off, every consumer goes straight to a fresh
  // context and solver of its own. The answers are the same either way (tests compare them).
  bool shared_solver = true;
};

// Both programs validated and corresponding (cli::load_pair, analysis::check_correspondence).
ProveResult prove(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
                  const model::ProgramIndex& impl_ix, const ProveOptions& options = {});

}  // namespace syncbisim::prover
