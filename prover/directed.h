#pragma once
// A directed run (docs/prover.md "Refutations"): one execution of the lock-step pair, built by
// choosing every step, that drives the consumer's engine to a given instance of the consumer
// with the trips a Z3 model gave, moving the other engines only as far as needed (the producer
// lagging), and then leaves the state the model describes: the producers held below what is owed
// (an under-synchronization), or retired exactly to it (an over-synchronization). Every step is
// one the semantics offers, so what it ends in is a reachable state: if the two sides disagree
// there on issuing the consumer, that is a real violation with a concrete trace. No search: the
// run's length is the execution's, so a witness 100,000 iterations deep costs a few hundred
// thousand steps.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "semantics/lockstep.h"

namespace syncbisim::prover {

enum class Goal : std::uint8_t {
  UnderSync,  // impl may issue the consumer, spec may not
  OverSync,   // spec may issue it, impl may not
  AtBarrier,  // the impl holds the consumer's engine at a barrier while the spec could issue it
  Overflow,   // a register or semaphore of the impl passes `watch.max` (no mismatch is looked for);
              // for a semaphore every engine runs whenever it can, so that all of them signal it
};

// Goal::Overflow: the value watched after every step.
struct Watch {
  bool semaphore = false;
  std::uint32_t id = 0;  // SemId, or RegId of the consumer's engine
  std::uint64_t max = 0;
};

struct DirectedRequest {
  semantics::InstrId consumer = 0;
  semantics::EngineId engine = 0;
  Goal goal = Goal::UnderSync;
  // The instance to reach: the iteration of loops around the consumer (compiled ids). Empty: no
  // particular one; the run goes on until a mismatch at the consumer shows or the run ends.
  std::vector<std::pair<semantics::LoopId, std::uint32_t>> instance;
  // The value of every trip choice of a loop (a cond: 0 then, 1 else), clamped into what the
  // rule allows; loops not listed take their smallest value.
  std::map<semantics::LoopId, std::uint32_t> trips;
  // UnderSync: producers (of the consumer's dependencies) to hold below what is owed.
  std::vector<semantics::InstrId> lagging;
  Watch watch;  // Goal::Overflow
  std::uint64_t max_steps = 50000000;
  double max_seconds = 30;
  // The trace is kept up to this many steps; a longer run goes on without it (its end is as
  // reachable as any: every step was taken), and says so (DirectedResult::trace_cut).
  std::uint64_t max_trace_steps = UINT64_MAX;
};

struct DirectedResult {
  // The first mismatch at the consumer of the goal's kind, and the trace to it.
  std::optional<semantics::Mismatch> found;
  std::vector<semantics::Step> trace;
  // A mismatch of the other kind met on the way, with its own trace.
  std::optional<semantics::Mismatch> other;
  std::vector<semantics::Step> other_trace;
  std::vector<std::pair<semantics::LoopId, std::uint32_t>> other_at;
  // The consumer engine's iteration of every loop around the consumer at the end of `trace`.
  std::vector<std::pair<semantics::LoopId, std::uint32_t>> at;
  bool overflowed = false;    // Goal::Overflow: the watched value is past its max at the end of `trace`
  std::uint64_t watched = 0;  // Goal::Overflow: the watched value at the end of the run
  std::string why_not;        // nothing of the goal's kind: where the run stopped and why
  std::uint64_t steps = 0;
  // The run outgrew max_trace_steps: `trace` is empty and `steps` its length (and the same for
  // the other kind's trace, `other_steps` long).
  bool trace_cut = false, other_trace_cut = false;
  std::uint64_t other_steps = 0;
  // The largest trip chosen for each loop (not a cond) by the run, and by the other kind's trace.
  std::map<semantics::LoopId, std::uint32_t> chosen, other_chosen;
};

DirectedResult directed_run(const semantics::Lockstep& both, const DirectedRequest& request);

}  // namespace syncbisim::prover
