#pragma once
// What a mismatch asks of the impl at the state where the two sides part (issue 42: answers that
// name the fix). An under-synchronization's wait holds too early: it needs a threshold above the
// semaphore's value now, at least as high as that value plus what the owed retirements of the
// producer will add. An over-synchronization's wait blocks although nothing is owed: its
// threshold must not pass the value now. The numbers are those of this one state; the fix that
// holds at every state is the closed form the caller may add (`closed_form`).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "semantics/compiled_program.h"
#include "semantics/lockstep.h"

namespace syncbisim::checker {

struct MismatchFix {
  enum class Kind : std::uint8_t {
    RaiseThreshold,  // under-sync: the wait on the producer's semaphore holds too early
    AddWait,         // under-sync: no wait of the consumer reads a semaphore the producer signals
    AddSignal,       // under-sync: the producer signals no semaphore
    LowerThreshold,  // over-sync: a wait blocks although nothing is owed
    DropBarrier,     // over-sync: a barrier holds the engine although nothing is owed
  };
  Kind kind = Kind::RaiseThreshold;
  std::optional<std::string> semaphore;  // the semaphore the fix is about
  std::optional<std::uint64_t> value;    // its value at this state
  // RaiseThreshold/AddWait: the least threshold that still blocks here; LowerThreshold: the
  // largest threshold that lets the consumer go.
  std::optional<std::uint64_t> needed;
  std::optional<std::uint64_t> threshold;  // what the impl's wait gives here
  std::string threshold_source;            // "w := 2 * r_A - 1" when a register gives it, else ""
  bool same_engine = false;                // producer and consumer on one engine (docs/semantics.md §1)
  std::string text;                        // the whole fix in one or two sentences
};

const char* to_string(MismatchFix::Kind k);  // "raise-threshold", ...

// The dependency check that decides a mismatch, the one its report and its fix speak of: for an
// under-synchronization the first one not satisfied, else the first; nullptr when the consumer
// has no dependency.
const semantics::DependencyCheck* deciding_check(const semantics::Mismatch& m);
// The wait check that decides: for an over-synchronization the first one that blocks, else the
// first; nullptr when the consumer has no wait.
const semantics::WaitCheck* deciding_wait(const semantics::Mismatch& m);

// nullopt for a mismatch that asks nothing of a wait (none here: every mismatch has one).
std::optional<MismatchFix> fix_for(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                                   const semantics::Mismatch& m);

// The register operation that last writes a wait's threshold register before `consumer` in its
// engine's stream ("w := 2 * r_A - 1"), or "" (a constant threshold, or no such operation).
std::string threshold_source(const semantics::CompiledProgram& impl, semantics::EngineId engine,
                             semantics::InstrId consumer, const semantics::CompiledWait& w);

// Why a consumer stands where it does at one state, for a person (the prover's "counterexample
// not reproduced", issue 42): each dependency with what it owes; each wait with its threshold,
// the operation behind it and the registers that operation reads, their values and the
// operations that write them on the engine. A wait on a semaphore only the consumer's producers
// signal that asks more than those dependencies owe is named as suspect, and a dependency owed
// more elsewhere that holds the consumer anyway as masking it. `regs`: the engine's registers.
std::string explain_consumer(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                             semantics::EngineId engine, semantics::InstrId consumer,
                             const std::vector<semantics::DependencyCheck>& deps,
                             const std::vector<semantics::WaitCheck>& waits, const std::uint64_t* regs);

// {"kind", "semaphore", "value", "needed", "threshold", "threshold_source", "same_engine", "text"}
// (docs/schema/check.schema.json $defs/fix); absent fields left out.
void fix_to_json(const MismatchFix& f, nlohmann::json& out);

}  // namespace syncbisim::checker
