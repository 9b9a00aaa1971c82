#pragma once
// The Z3 prover (docs/prover.md): for every consumer c, at the moment c is next to
// issue, for every trip count and history, do c's waits hold exactly when its dependencies are
// satisfied? One Z3 query per consumer. `refuted` is only said after the explorer reproduced
// the counterexample on the pair with the model's trip counts; `proved` only when the negation
// is unsatisfiable under constraints that over-approximate the reachable states.
// Z3 stays inside prover/*.cpp: this header exposes plain types.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::prover {

enum class Answer : std::uint8_t { Proved, Refuted, Unknown };
const char* to_string(Answer a);
// docs/formats.md: 0 proved, 1 refuted, 3 unknown.
int exit_status(Answer a);

// What the Z3 model said, turned into numbers a person can read.
struct Counterexample {
  std::map<std::string, std::uint64_t> trips;      // loop -> constant trip count (branch loops: 0/1)
  std::map<std::string, std::uint64_t> iteration;  // loops around c -> current iteration
  std::map<std::string, std::uint64_t> retired;    // instruction -> R
};

// What the explorer found on the pair with those trips.
struct Replay {
  std::string kind;                // "under-sync", "over-sync", "deadlock"
  std::string description;         // both sides' numbers
  std::vector<std::string> trace;  // visible steps from the initial state
  std::uint64_t states = 0;
};

struct ConsumerResult {
  std::string instr, engine;
  Answer answer = Answer::Unknown;
  std::string reason;  // for unknown: why; for refuted: a summary
  Counterexample model;
  Replay replay;
  double seconds = 0;
};

struct ProveResult {
  Answer verdict = Answer::Proved;
  std::vector<ConsumerResult> consumers;  // instructions with a dependency or a wait, tree order
  double seconds = 0;
};

struct ProveOptions {
  unsigned z3_timeout_ms = 10000;
  bool replay = true;  // without replay a satisfiable negation is `unknown`
  std::uint64_t replay_max_states = 2000000;
  double replay_max_seconds = 20;
};

// Both programs validated and corresponding (cli::load_pair, analysis::check_correspondence).
ProveResult prove(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
                  const model::ProgramIndex& impl_ix, const ProveOptions& options = {});

}  // namespace syncbisim::prover
