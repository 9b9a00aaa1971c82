#pragma once
// What a check finds (docs/semantics.md §5, docs/formats.md "`check --json`").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "semantics/lockstep.h"

namespace syncbisim::checker {

enum class Verdict : std::uint8_t {
  Bisimilar,
  OverSynchronized,
  UnderSynchronized,
  SpecDeadlock,
  Inconclusive,
  Overflow,  // a register or semaphore value passes its width (docs/semantics.md "Widths")
};
const char* to_string(Verdict v);
// docs/formats.md: 0 holds, 1 a violation was found, 3 inconclusive.
int exit_status(Verdict v);

enum class ViolationKind : std::uint8_t { UnderSync, OverSync, Deadlock, Overflow };
const char* to_string(ViolationKind k);

struct Violation {
  ViolationKind kind = ViolationKind::UnderSync;
  semantics::EngineId engine = 0;
  std::optional<semantics::InstrId> instr;  // the instruction the engine stands before, if any
  semantics::Mismatch mismatch;             // under-sync and over-sync
  bool spec_deadlocks_too = false;          // deadlock: the spec is stuck there as well (§7.5)
  bool spec_search_cut = false;             // deadlock: unknown whether the spec is stuck too (a limit)
  std::vector<semantics::EngineId> stuck;   // deadlock: engines not finished
  semantics::Overflow overflow;             // overflow: what passed its width, and where
  std::vector<semantics::Step> trace;       // visible steps from the initial state
};

struct CheckResult {
  Verdict verdict = Verdict::Bisimilar;
  bool exhaustive = true;
  std::string limit;  // the limit that was hit, if any ("max-states 1000000", ...)
  std::uint64_t states = 0, transitions = 0;
  double seconds = 0;
  std::uint64_t bytes = 0;  // memory of the state store
  std::vector<Violation> violations;
};

// The verdict from the violations found and whether the search was complete.
Verdict verdict_of(const std::vector<Violation>& v, bool complete);

// Names `limit` among those that cut the search (r.limit, comma-separated, in the order named):
// the search is then not exhaustive. The caller derives the verdict.
void add_limit(CheckResult& r, const std::string& limit);

}  // namespace syncbisim::checker
