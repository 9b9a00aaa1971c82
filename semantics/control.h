#pragma once
// The control steps both systems share (docs/semantics.md §3 steps 2-6): commit, retire, loop entry,
// loop exit / back edge, trip and branch choices. The spec and the impl wrap this with their
// own issue condition and their own effect of a retirement.
#include <vector>

#include "model/value_width.h"
#include "semantics/control_state.h"
#include "semantics/step.h"
#include "semantics/steps.h"

namespace syncbisim::semantics {

struct Options {
  // Retire = commit-and-retire of the head (docs/semantics.md §3: datapath state is opaque, so this
  // leaves the reachable synchronization outcomes unchanged; docs/semantics.md).
  bool fuse_commit = true;
  // The impl's register and semaphore widths: a value past them is an overflow, which ends the
  // execution (docs/semantics.md "Widths"). The spec has neither and ignores them.
  model::ValueWidths widths = {};
};

class Control {
 public:
  Control(const CompiledProgram& p, Options o) : p_(&p), opt_(o) {}

  ControlState initial() const;
  const Op& next_op(const ControlState& s, EngineId e) const { return p_->code[e][s.engines[e].pc]; }
  bool finished(const ControlState& s, EngineId e) const {
    return next_op(s, e).kind == OpKind::End && s.engines[e].inflight.empty();
  }
  // The engine's current iteration vector over `loops` (paper §4.1: 1-based, innermost last).
  template <class Out>
  void iteration_vector(const ControlState& s, EngineId e, const std::vector<LoopId>& loops, Out& out) const {
    out.clear();
    for (LoopId l : loops) out.push_back(s.engines[e].frames[l].iter);
  }

  // Control steps enabled for engine e: commits (without fusion) and the retirement of a
  // committed head, and, if `loop_steps`, the loop step or the choices at a loop head or back edge.
  // A range trip's choices go into `out` as one run (semantics/steps.h).
  void enabled(const ControlState& s, EngineId e, Steps& out, bool loop_steps = true) const;
  // The same, every choice its own step: only where ranges are known to be small (tests).
  void enabled(const ControlState& s, EngineId e, std::vector<Step>& out, bool loop_steps = true) const;
  // The loop step at a loop head or back edge when it needs no choice, into `out`; false if
  // there is none. (A bool and an out-parameter rather than std::optional<Step>,
  // which GCC returns through memory: this is on the checker's hot path.)
  bool deterministic_loop_step(const ControlState& s, EngineId e, Step& out) const;
  // Loop-head/back-edge step alone (no commit/retire), if the next op is one.
  void loop_steps(const ControlState& s, EngineId e, Steps& out) const;
  void loop_steps(const ControlState& s, EngineId e, std::vector<Step>& out) const;  // ranges expanded

  // Applies a control step. Returns the loop whose new iteration the step started, or kNoLoop,
  // so the caller can record the entry (the spec's H, docs/semantics.md §2). (A sentinel rather than
  // std::optional, which GCC returns through memory: a store-forwarding stall per step.)
  static constexpr LoopId kNoLoop = UINT32_MAX;
  LoopId apply(ControlState& s, const Step& st) const;
  // Appends an issued instruction and advances past it.
  void issue(ControlState& s, EngineId e, InstrId i) const;

  const CompiledProgram& program() const { return *p_; }
  const Options& options() const { return opt_; }

 private:
  // The trip count of the loop at head `l` for engine e if it needs no choice.
  // kUnknownTrip (no trip count: those are 32-bit) if a choice is needed. Not std::optional:
  // GCC returns that through the stack in two stores and one load, a store-forwarding stall
  // measured at 4% of the checker's time.
  static constexpr std::uint64_t kUnknownTrip = UINT64_MAX;
  std::uint64_t known_trip(const ControlState& s, EngineId e, LoopId l) const;
  LoopId start_trip(ControlState& s, EngineId e, LoopId l, std::uint32_t trip) const;
  LoopId enter_or_exit(ControlState& s, EngineId e, LoopId l) const;

  const CompiledProgram* p_;
  Options opt_;
};

}  // namespace syncbisim::semantics
