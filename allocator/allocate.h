#pragma once
// The allocator (GitHub issue 4): turns a spec into an impl program whose semaphore waits encode
// the dependency graph. Strategies (docs/allocator.md):
//   barrier          the paper's §3.4 baseline: SYNC before every loop and at every iteration end
//   per-instruction  paper §5.3, one semaphore per producer
//   per-loop         paper §5.4-5.5, one semaphore per (loop, engine) pair
//   per-engine       paper §6.1, one semaphore per engine, decoded from the loop registers
//   auto             per-loop
//   mixed            per dependency the least ALU per issue that fits the budget (paper §6.3)
//   expert           paper §8.2's Manual variant (RQ3): dedicated semaphores where the decode would
//                    cost time, thresholds in registers updated once per iteration at the loop's
//                    tail, waits reading registers directly (allocator/expert.h)
// Dependencies outside paper §5.2 get the extended closed forms of target_count.h (or, with
// Options::barrier_fallback, the paper's non-resetting barriers).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/expr.h"
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::allocator {

enum class Strategy : std::uint8_t { Barrier, PerInstruction, PerLoop, PerEngine, Auto, Mixed, Expert };
const char* to_string(Strategy s);
std::optional<Strategy> parse_strategy(const std::string& s);
std::vector<Strategy> all_strategies();
// "barrier, per-instruction, per-loop, per-engine, auto, mixed, expert": for messages.
std::string strategy_names();

enum class Reuse : std::uint8_t { Auto, Always, Never };
// "auto", "always", "never"
const char* to_string(Reuse r);
std::optional<Reuse> parse_reuse(const std::string& s);

struct Options {
  Strategy strategy = Strategy::Auto;
  bool prune_registers = false;  // keep only registers some wait reads (and what they depend on)
  // paper §6.2: wait values of one straight-line stream share their common subexpressions
  // (allocator/share_waits.h); third, so that {strategy, prune, share} reads as it always has
  bool share_wait_values = false;
  // Dependencies outside paper §5.2 get the paper's barrier fallback instead of the extended
  // closed forms (docs/allocator.md "Beyond the paper").
  bool barrier_fallback = false;
  // paper §6.2's ALU reductions (docs/allocator.md "ALU reductions"): loop-invariant code motion
  // and common-subexpression elimination of the wait values.
  bool licm = true;
  bool cse = true;
  // Waits read a threshold that is a single register directly (no temporary; reductions.h).
  bool direct_registers = false;
  // The budget (docs/allocator.md "Budgets"): at most this many semaphores, and registers on
  // any one engine. The defaults are Trainium 2's: 256 semaphores per core, 64 registers per
  // engine sequencer. A strategy that does not fit is mixed until it does; exactness is given up
  // (and the decisions say where) only when nothing exact fits.
  std::size_t max_semaphores = 256;
  std::size_t max_registers = 64;
  // The expert strategy's judge (allocator/expert.h): the cost of a candidate impl of a spec (the
  // one allocated, or one of its top-level statements as a spec of its own), lower is better (the
  // timing model's makespan: latency::timing_judge), or nullopt when it cannot say (a deadlock on
  // the model). Without one the expert uses its static rule.
  using Judge = std::function<std::optional<std::uint64_t>(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                                           const model::Program& impl)>;
  Judge judge;
  // Registers and semaphores reused by liveness (docs/allocator.md "Reusing registers and
  // semaphores"): when the allocation would not fit the budget otherwise (Auto), always, never.
  Reuse reuse = Reuse::Auto;
  // Threads for the parts of an allocation that are independent (each engine's register
  // liveness, the expert's judging of each top-level statement); the result is the same for any
  // number.
  unsigned jobs = 1;
};

// How a dependency is synchronized.
enum class Scheme : std::uint8_t {
  PerInstruction,  // its producer's own semaphore (paper §5.3)
  PerLoop,         // the (loop, engine) semaphore of its producer (paper §5.5)
  PerEngine,       // its producer's engine semaphore, decoded (paper §6.1)
  Barrier,         // the barrier baseline's region thresholds (paper §3.4)
  Fallback,        // not allocatable: a non-resetting barrier (docs/allocator.md)
  NoWait,          // the target always underflows: nothing is ever owed
};
// "per-instruction", "per-loop", "per-engine", "barrier", "fallback", "no-wait"
const char* to_string(Scheme s);

// What one dependency got, and why.
struct Decision {
  std::size_t dep = 0;  // index into Program::deps
  std::string label;    // "I3 -> I2 {A: 2}"
  Scheme scheme = Scheme::Fallback;
  std::string semaphore;            // the semaphore waited on ("" when no wait)
  std::optional<model::Expr> wait;  // the threshold (registers of the consumer's engine)
  std::string detail;               // N, K, the reason for a fallback, ...
  // The wait holds exactly when the spec's condition does. False where a budget or a closed form
  // gave up exactness (the wait is then stricter than the spec: safe, docs/allocator.md).
  bool exact = true;
  std::string to_string() const;
};

struct Allocation {
  model::Program impl;
  std::vector<Decision> decisions;  // one per dependency, in Program::deps order
  std::vector<std::string> notes;
  // The top-level statements before which a budget put a barrier that resets recycled semaphores
  // (docs/allocator.md "Budgets"). Such a barrier orders more than any dependency asks: the impl
  // is then over-synchronized at that point even where every decision is exact.
  std::vector<std::uint32_t> recycling_barriers;
  // Every decision exact and no recycling barrier: the impl then synchronizes exactly as the spec.
  bool exact() const;
};

// Another strategy whose allocation is this one's, exactly, when there is one (for a table of
// every strategy, `stats --compare`, that then allocates it once): auto is per-loop (the
// default case of allocate()); per-instruction with more semaphores than the budget is fitted
// from the same start as mixed (every producer its own semaphore: fit_budget), so it is
// mixed's, unless reuse may bring it within the budget (Options::reuse not never, more than one
// top-level statement: it is then finished and reused first). Costs one decision of per-instruction (allocator/decide.h); the answer is the same
// with and without LICM and CSE, which act only when an allocation is finished.
struct SpecFacts;
std::optional<Strategy> same_allocation_as(const SpecFacts& facts, const Options& options);

// `spec` normalized and `ix` built from it (formats::load_program_file gives both).
model::Result<Allocation> allocate(const model::Program& spec, const model::ProgramIndex& ix, const Options& options);
// The same on facts computed once (allocator/spec_facts.h), for callers that allocate one spec
// many times (`stats --compare`: every strategy, with and without the ALU reductions).
struct SpecFacts;
model::Result<Allocation> allocate(const SpecFacts& facts, const Options& options);

}  // namespace syncbisim::allocator
