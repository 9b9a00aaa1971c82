#pragma once
// The implementation transition system (docs/semantics.md §4, paper §7.2 and A.5): the same control
// as the spec, but an instruction issues when its waits hold on the semaphores; retirements
// add signals; register operations and barriers are steps of their own.
#include <cstdint>
#include <vector>

#include "semantics/control.h"
#include "semantics/small_vec.h"

namespace syncbisim::semantics {

struct ImplState {
  ControlState control;
  SmallVec<SmallVec<std::uint64_t, 16>, 6> regs;  // per engine, by RegId (a name on two engines is two registers)
  SmallVec<std::uint64_t, 16> sems;               // by SemId
  SmallVec<std::uint8_t, 8> arrived;              // per engine: waiting at its barrier
  bool operator==(const ImplState&) const = default;
  std::uint64_t hash() const;
};

// One wait checked at an issue point.
struct WaitCheck {
  SemId sem = 0;
  std::uint64_t value = 0;      // the semaphore now
  std::uint64_t threshold = 0;  // the wait's register or constant now
  bool holds() const { return value >= threshold; }
};

class ImplSystem {
 public:
  ImplSystem(const CompiledProgram& p, Options o = {});

  ImplState initial() const;
  // A range trip's choices as one run (semantics/steps.h).
  void enabled(const ImplState& s, Steps& out) const;
  void enabled(const ImplState& s, EngineId e, Steps& out) const;
  // The same with every choice its own step: only where ranges are known to be small (tests).
  void enabled(const ImplState& s, std::vector<Step>& out) const;
  void enabled(const ImplState& s, EngineId e, std::vector<Step>& out) const;
  void apply(ImplState& s, const Step& st) const;

  bool can_issue(const ImplState& s, EngineId e) const;
  std::vector<WaitCheck> explain(const ImplState& s, EngineId e) const;
  bool all_finished(const ImplState& s) const;
  // Every engine has arrived at a barrier: the release step is enabled.
  bool barrier_ready(const ImplState& s) const;

  const Control& control() const { return control_; }
  const CompiledProgram& program() const { return control_.program(); }

 private:
  Control control_;
};

}  // namespace syncbisim::semantics
