#pragma once
// A mixed allocation (paper §6.3: "a compiler can mix them across a program"): per producer
// pair (its parent loop and engine) the producers get a semaphore each (per-instruction), one
// shared by the pair (per-loop) or their engine's (per-engine, where the decode exists); only
// producers signal. A budget may add recycling barriers before top-level statements, whose
// semaphores are then reused by the groups that live entirely between two of them, and may
// leave dependencies to barriers (give_up.h) or drop their masks. docs/allocator.md "Budgets".
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "allocator/dep_set.h"
#include "allocator/draft.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

enum class GroupKind : std::uint8_t { Own, Loop, Engine };

struct Mix {
  std::map<std::pair<model::LoopId, model::EngineId>, GroupKind> pairs;  // absent: Own
  DepSet given_up;                                                       // dependencies left to barriers
  DepSet unmasked;                     // dependencies waiting without their mask (stricter)
  std::set<std::uint32_t> boundaries;  // top-level statements with a recycling barrier before them
};

// The top-level statement an instruction sits in.
std::uint32_t top_statement(const SpecFacts& facts, model::InstrId i);
// Whether a recycling barrier may stand before top-level statement b: no dependency that binds
// has its consumer before b and its producer from b on (the consumer would wait for an
// instance behind the barrier it has not passed).
bool boundary_allowed(const SpecFacts& facts, std::uint32_t b);

// Allocates `deps` (all barrier-free) as `mix` says. A pair asked to be Engine whose
// dependencies the engine decode cannot express becomes Loop.
void allocate_mixed(const SpecFacts& facts, Draft& draft, const std::vector<std::size_t>& deps, const Mix& mix);

}  // namespace syncbisim::allocator
