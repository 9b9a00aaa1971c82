#pragma once
// The differential bisimulation checker (docs/semantics.md §5): explores the lock-step product of
// the spec and the impl and classifies every reachable state. Exhaustive mode is a breadth-first
// search over a visited set, so each violation's trace is a shortest one (in steps of the
// explored graph); random mode runs seeded walks with the same checks at every step.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "checker/check_result.h"
#include "semantics/lockstep.h"
#include "statespace/state_store.h"

namespace syncbisim::checker {

class Coverage;  // checker/coverage.h

struct Progress {
  std::uint64_t states = 0;
  std::uint64_t frontier = 0;
  double seconds = 0;
  std::uint64_t bytes = 0;
  std::uint64_t depth = 0;  // the breadth-first level being expanded (random mode: 0)
};

// How the search keeps its visited set (statespace/state_store.h): flat or tree, on one thread,
// on several or on MPI ranks. The same search, states and traces either way.
using statespace::StateStore;
// Its names, "flat" and "tree", parsed here alone for every front end (check --state-store, the
// public API, the Python module's state_store), so that they take the same names and say the
// same of a bad one: unknown_state_store("packed") is "unknown state store 'packed' (flat, tree)".
const char* to_string(StateStore s);
std::optional<StateStore> parse_state_store(const std::string& name);
std::string unknown_state_store(const std::string& name);

struct CheckOptions {
  // Sound reductions (docs/checker.md): eager issue of instructions both sides may issue and
  // whose waits no barrier can reset, eager retirement of instructions nothing observes.
  // Commit fusion is chosen where the systems are built (semantics::Options).
  bool reduction = true;
  std::uint64_t max_states = 0;  // 0: no limit
  double max_seconds = 0;        // 0: no limit
  std::uint64_t max_memory = 0;  // bytes of the state store (CheckResult::bytes); 0: no limit
  // Threads of the exhaustive search: the same states, transitions, violations and traces for
  // any number (docs/checker.md "Search"), except where max_seconds, max_memory or the
  // internal-step limit cuts the search: that depends on timing. Both state stores run on several
  // threads (the tree store's shared form is detail/shared_halves.h). With `coverage` the search
  // runs on one thread; random walks (`walks` > 0) and the shortening of traces after a reduced
  // search always run on one.
  unsigned threads = 1;
  // The visited set's store, on one thread or several.
  StateStore state_store = StateStore::Flat;
  // Random mode: `walks` > 0 runs that many walks of at most `depth` steps from `seed`.
  std::uint64_t walks = 0;
  std::uint64_t seed = 1;
  std::uint64_t depth = 100000;
  std::function<void(const Progress&)> progress;  // called about every 2 seconds
  // check --coverage: sees every explored state (a search of the full state space when
  // `reduction` is off; the states the reduced search visits otherwise).
  Coverage* coverage = nullptr;
};

// The search the options ask for: random walks, or the exhaustive search on one thread or on
// options.threads threads (checker/frontier.h, which runs any frontier).
CheckResult check(const semantics::Lockstep& both, const CheckOptions& options);

// After a reduced search, on any frontier: the reductions force eager steps into a trace, so each
// violation is looked for once more without them, no deeper than its trace, and keeps the shorter
// trace found: a shortest one of the full graph. check() calls it where the frontier reports.
void shorten_traces(const semantics::Lockstep& both, const CheckOptions& options, CheckResult& r);

class ProgramPair;
// check() of the pair's lock step; if the pair was made with a trip cap that cut some range
// (ProgramPair::cut()), the search covered fewer executions than the programs allow: it is not
// exhaustive, names the cap among its limits, and a pair without violations is inconclusive.
CheckResult check(const ProgramPair& pair, const CheckOptions& options);

}  // namespace syncbisim::checker
