#pragma once
// Mutation operators on impl programs (GitHub issue 6): small, plausible synchronization bugs
// (a constant off by one, two semaphores or registers swapped, a register operation dropped or
// moved, a wait, a signal or a barrier dropped, a mask threshold changed). Each mutant carries a value that
// says what changed, so a test can print "caught" or "equivalent within bound N" per mutation.
// Mutants are enumerated exhaustively and deterministically: no randomness is needed to cover
// a program, and a failing mutant is named by its position in the list.
#include <cstdint>
#include <string>
#include <vector>

#include "model/program.h"

namespace syncbisim::generators {

enum class MutationKind : std::uint8_t {
  ChangeConstant,  // a constant in a register operation or a constant wait threshold, +1 or -1
  ChangeMask,      // the threshold k of an isgt(r, k): the mask of docs/semantics.md §6
  SwapRegisters,   // the registers an expression reads, exchanged (or one replaced by another)
  SwapSemaphores,  // a wait or a signal on another declared semaphore
  DropRegOp,
  MoveRegOp,  // a register operation one place later in its stream
  DropWait,
  DropSignal,
  DropBarrier,  // a barrier removed from one engine's stream (that engine no longer meets the others there)
};
const char* to_string(MutationKind k);

struct Mutation {
  MutationKind kind = MutationKind::ChangeConstant;
  std::string engine;
  // What the mutated item is, for tools that choose mutations (the shrinker keeps a failure's
  // own synchronization): the instruction (an instruction item), the register a register
  // operation writes, the semaphore of the wait or signal changed. Empty where it does not apply.
  std::string instr, reg, sem;
  // For people: the item ("I3", "[w := ...]") with the enclosing loop path, and the change.
  std::string where;
  std::string from, to;
  std::string to_string() const;  // "drop-wait on E1 at I3 in A: s_A_E1 >= w -> (none)"
};

struct Mutant {
  Mutation mutation;
  model::Program impl;  // normalized; still valid and still corresponding to the same spec
};

// Every mutant of `impl`, in a fixed order (tree pre-order, then item order, then kind).
std::vector<Mutant> mutants(const model::Program& impl);

}  // namespace syncbisim::generators
