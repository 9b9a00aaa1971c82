#pragma once
// One step of either transition system (docs/semantics.md §3-4). Visible steps (the ones both
// systems must agree on) are issue, retire and the trip/branch choices; the rest are internal.
#include <cstdint>
#include <string>

#include "semantics/compiled_program.h"

namespace syncbisim::semantics {

enum class StepKind : std::uint8_t {
  Issue,           // arg: InstrId
  Commit,          // arg: position in the engine's in-flight list (only without commit fusion)
  Retire,          // arg: InstrId of the head
  Choose,          // arg: trip count (a loop) or branch, 0 = then / 1 = else (a cond); aux: LoopId
  LoopEntry,       // arg: LoopId; starts the next iteration (and the trip, when not yet started);
                   // aux: 0, or the trip + 1 when the step starts a trip whose count is known
  LoopExit,        // arg: LoopId; the trip is done, go past the loop; aux as for LoopEntry
  BackEdge,        // arg: LoopId; end of the body, back to the guard
  RegOp,           // impl: arg: register operation index
  BarrierArrive,   // impl: the engine has drained and arrives at its barrier
  BarrierRelease,  // impl: every engine has arrived; reset and go on (engine: 0, unused)
};

struct Step {
  StepKind kind = StepKind::Issue;
  EngineId engine = 0;
  std::uint32_t arg = 0;
  std::uint32_t aux = 0;
  bool operator==(const Step&) const = default;
};

// Issue, retire and choices are observed by the bisimulation (docs/semantics.md §5).
bool is_visible(StepKind k);
const char* to_string(StepKind k);
// "issue E1 I2", "choose E0 A = 3", "choose E0 C = then", ...
std::string describe(const CompiledProgram& p, const Step& s);

}  // namespace syncbisim::semantics
