#pragma once
// Both systems side by side on the visible events (docs/semantics.md §5): issue, retire, trip and
// branch choices happen on both at once; loop control, register operations and barriers are
// internal and run as soon as they can ("settling"), so both sides stand at the same place on
// every engine whenever a visible step is chosen. Commits are shared control; unless the systems
// fuse them into retirement (docs/semantics.md §3 allows it), they are offered by visible() too.
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "semantics/engine_set.h"
#include "semantics/impl_system.h"
#include "semantics/spec_system.h"

namespace syncbisim::semantics {

struct LockstepState {
  SpecState spec;
  ImplState impl;
  bool operator==(const LockstepState&) const = default;
  std::uint64_t hash() const { return spec.hash() * 31 + impl.hash(); }
};

// At some engine the two sides disagree on whether its next instruction may issue.
struct Mismatch {
  EngineId engine = 0;
  InstrId instr = 0;
  bool spec_can = false;  // spec may issue, impl may not: over-synchronization
  bool impl_can = false;  // impl may issue, spec may not: under-synchronization
  std::vector<DependencyCheck> spec_checks;
  std::vector<WaitCheck> impl_checks;
  bool impl_blocked_at_barrier = false;  // the impl waits at a barrier before the instruction
  // Neither a mismatch nor an agreement: the impl holds the engine at a barrier, and the walk of
  // the spec's control past it (ahead_of_barrier) stopped after Lockstep::kAheadStates states
  // without finding out whether the spec could issue something. `instr` is meaningless; the
  // checker names the limit and makes its verdict inconclusive.
  bool undecided = false;
};

// Thrown by a step after which one engine would run more than Lockstep::kMaxInternalSteps
// internal steps (register operations and loop steps) before it stands still: a loop with no
// instruction of that engine and a huge trip runs entirely inside one step, and 2^32 (or, nested,
// 2^64) iterations would never end. Whoever applies steps ends its work there as at any limit:
// inconclusive, naming it (what() is the limit's name, docs/checker.md "Search").
class InternalStepLimit : public std::runtime_error {
 public:
  explicit InternalStepLimit(const std::string& engine);
  // The limit's name for `engine` ("": an engine not known here, as on another MPI rank).
  static std::string name(const std::string& engine);
};

// Sees every internal step right after it is applied (for traces); may be empty.
using InternalObserver = std::function<void(const Step&, const struct LockstepState&)>;

class Lockstep {
 public:
  // How many spec states ahead_of_barrier() walks at most for one engine of one state.
  static constexpr std::size_t kAheadStates = 10000;
  // How many internal steps one engine may run within one step (InternalStepLimit).
  static constexpr std::uint64_t kMaxInternalSteps = std::uint64_t{1} << 20;

  // Both systems must be compiled from corresponding programs (analysis::check_correspondence).
  Lockstep(const SpecSystem& spec, const ImplSystem& impl) : spec_(&spec), impl_(&impl) {}

  LockstepState initial(const InternalObserver& observe = {}) const;
  // Runs internal steps until none is left.
  void settle(LockstepState& s, const InternalObserver& observe = {}) const;
  // Is no internal step left (what settle() establishes)?
  bool settled(const LockstepState& s) const;
  // Steps the two sides take together: issue (only where both may), retire, choices, and
  // commits when they are not fused. A range trip's choices are one run (semantics/steps.h):
  // searches iterate them, never hold them all.
  void visible(const LockstepState& s, Steps& out) const { visible(s, out, nullptr); }
  // visible() and, appended to `found`, mismatches(): both rest on each engine's two issue
  // verdicts, which this computes once (the explorer needs both at every state).
  void visible(const LockstepState& s, Steps& out, std::vector<Mismatch>* found) const;
  // The same with every choice its own step: only where ranges are known to be small (tests).
  void visible(const LockstepState& s, std::vector<Step>& out) const { visible(s, out, nullptr); }
  void visible(const LockstepState& s, std::vector<Step>& out, std::vector<Mismatch>* found) const {
    Steps steps;
    visible(s, steps, found);
    steps.expand_into(out);
  }
  // Applies a visible step to both sides, then settles.
  void apply(LockstepState& s, const Step& st, const InternalObserver& observe = {}) const;
  // apply(), and which engines' own parts of the state changed (all of them after a barrier
  // release): the step's engine, and the engines that settling moved. Global parts (R, semaphores, pending choices) are
  // not covered. The checker stores states part by part and so re-encodes only these. It is made of the pieces below,
  // which the checker also runs one by one (and remembers: docs/checker.md, "Step memo"): apply_local(); after a
  // choice, settle_engine() of every engine in order; then, if a barrier is ready, settle().
  EngineSet apply_touching(LockstepState& s, const Step& st) const;
  // The step on both sides, then its engine's own internal steps. From a settled state nothing
  // else is left to do unless the step was a choice (other engines may have waited for it) or
  // a barrier is now ready: an issue, a retirement or a commit gives other engines no internal
  // step.
  void apply_local(LockstepState& s, const Step& st) const;
  // Runs engine e's internal steps until none is left; did it move?
  bool settle_engine(LockstepState& s, EngineId e) const { return settle_engine(s, e, {}); }
  bool barrier_ready(const LockstepState& s) const { return impl_->barrier_ready(s.impl); }

  // Per engine whose next spec item is an instruction: does impl agree on issuing it? An engine
  // the impl holds at a barrier is compared on the spec's next instruction past loop control
  // (and reported `undecided` if that walk is cut).
  std::vector<Mismatch> mismatches(const LockstepState& s) const;
  bool spec_can_issue(const LockstepState& s, EngineId e) const { return spec_->can_issue(s.spec, e); }
  bool impl_can_issue(const LockstepState& s, EngineId e) const;
  bool finished(const LockstepState& s) const { return spec_->all_finished(s.spec) && impl_->all_finished(s.impl); }

  const SpecSystem& spec() const { return *spec_; }
  const ImplSystem& impl() const { return *impl_; }

 private:
  bool settle_engine(LockstepState& s, EngineId e, const InternalObserver& observe) const;
  void settle(LockstepState& s, const InternalObserver& observe, EngineSet& touched) const;
  // Over-synchronization hidden behind a barrier: the spec could get past loop control to an
  // instruction it may issue while the impl waits at the barrier. An undecided Mismatch if the
  // walk reaches kAheadStates states first.
  std::optional<Mismatch> ahead_of_barrier(const LockstepState& s, EngineId e) const;
  // The mismatches of engine e, whose next spec op is `sop`, given both sides' issue verdicts.
  void mismatch_at(const LockstepState& s, EngineId e, const Op& sop, bool sc, bool ic,
                   std::vector<Mismatch>& out) const;

  const SpecSystem* spec_;
  const ImplSystem* impl_;
};

}  // namespace syncbisim::semantics
