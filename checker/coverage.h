#pragma once
// What the explored states exercised (`check --coverage`, as TLC's -coverage; docs/checker.md
// "Coverage"): for every dependency, in how many states its consumer stood next to issue, was
// owed something (the target did not underflow) and was held back by it (not satisfied); for
// every wait, in how many states it was checked and blocked. A dependency that never holds its
// consumer back at these trips hides any bug in its wait (raise the trips, or the trip range);
// a wait that never blocks may be redundant.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "semantics/lockstep.h"

namespace syncbisim::checker {

struct DependencyCoverage {
  std::uint64_t reached = 0;  // states with the consumer next on its engine
  std::uint64_t owed = 0;     // ... and something owed (no underflow)
  std::uint64_t held = 0;     // ... and not satisfied: the dependency held the consumer back
};

struct WaitCoverage {
  semantics::InstrId instr = 0;
  std::size_t index = 0;      // the instruction's index-th wait
  std::uint64_t reached = 0;  // states with the instruction next on its engine in the impl
  std::uint64_t blocked = 0;  // ... and this wait did not hold
};

class Coverage {
 public:
  explicit Coverage(const semantics::Lockstep& both);

  // Counts what state `s` exercises. Called once per explored state.
  void observe(const semantics::LockstepState& s);
  std::uint64_t states() const { return states_; }

  const std::vector<DependencyCoverage>& dependencies() const { return deps_; }  // by CompiledProgram::deps
  const std::vector<WaitCoverage>& waits() const { return waits_; }

  std::string render_text() const;
  nlohmann::json render_json() const;

 private:
  const semantics::Lockstep* both_;
  std::vector<DependencyCoverage> deps_;
  std::vector<WaitCoverage> waits_;
  std::vector<std::size_t> first_wait_;  // by InstrId: the index of its first wait in waits_
  std::uint64_t states_ = 0;
};

}  // namespace syncbisim::checker
