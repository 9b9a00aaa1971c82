#pragma once
// The implementation transition system (docs/semantics.md §4, paper §7.2 and A.5): the same control
// as the spec, but an instruction issues when its waits hold on the semaphores; retirements
// add signals; register operations and barriers are steps of their own.
#include <cstdint>
#include <vector>

#include "semantics/control.h"
#include "semantics/small_vec.h"

namespace syncbisim::semantics {

// Why an engine stopped at an overflow (docs/semantics.md "Widths"), kept per engine in the state.
enum class OverflowKind : std::uint8_t {
  None,       // it did not
  Register,   // a value a register operation computed (a constant, an operator's result, the
              // result) passed the register width (the engine stands before the operation; its
              // destination register holds that value)
  PastU64,    // a register operation's value passed 2^64 - 1, what the tool represents, whatever
              // the width (the engine stands before the operation; the register is unchanged)
  Semaphore,  // a retirement's signal took a semaphore past the semaphore width (it holds the value)
};
const char* to_string(OverflowKind k);

struct ImplState {
  ControlState control;
  SmallVec<SmallVec<std::uint64_t, 16>, 6> regs;  // per engine, by RegId (a name on two engines is two registers)
  SmallVec<std::uint64_t, 16> sems;               // by SemId
  SmallVec<std::uint8_t, 8> arrived;              // per engine: waiting at its barrier
  SmallVec<std::uint8_t, 8> overflow;             // per engine: an OverflowKind; not None ends the execution
  bool operator==(const ImplState&) const = default;
  std::uint64_t hash() const;
};

// One overflow of a state, for reports.
struct Overflow {
  EngineId engine = 0;
  OverflowKind kind = OverflowKind::None;
  std::uint32_t regop = 0;  // Register, PastU64: the register operation (index into regops)
  SemId sem = 0;            // Semaphore
  std::uint64_t value = 0;  // Register, Semaphore: the (first) value past the width
  std::uint64_t max = 0;    // Register, Semaphore: the largest value the width holds
  unsigned bits = 0;        // Register, Semaphore: the width
  bool operator==(const Overflow&) const = default;
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
  const model::ValueWidths& widths() const { return widths_; }

  ImplState initial() const;
  // A range trip's choices as one run (semantics/steps.h; expanded() there has every choice its
  // own step).
  void enabled(const ImplState& s, Steps& out) const;
  void enabled(const ImplState& s, EngineId e, Steps& out) const;
  void apply(ImplState& s, const Step& st) const;

  bool can_issue(const ImplState& s, EngineId e) const;
  std::vector<WaitCheck> explain(const ImplState& s, EngineId e) const;
  bool all_finished(const ImplState& s) const;
  // Every engine has arrived at a barrier: the release step is enabled.
  bool barrier_ready(const ImplState& s) const;
  // Has some engine overflowed? Such a state has no step: the hardware's value is gone, so
  // nothing after it says anything about the program (docs/semantics.md "Widths").
  bool overflowed(const ImplState& s) const {
    for (auto o : s.overflow)
      if (o != 0) return true;
    return false;
  }
  // The overflows of a state, engine by engine.
  std::vector<Overflow> overflows(const ImplState& s) const;

  const Control& control() const { return control_; }
  const CompiledProgram& program() const { return control_.program(); }

 private:
  Control control_;
  model::ValueWidths widths_;
  // widths_'s largest values, read at every register operation and signal (the hot path).
  std::uint64_t register_max_ = 0, semaphore_max_ = 0;
};

}  // namespace syncbisim::semantics
