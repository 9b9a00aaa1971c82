#pragma once
// Synchronizing a dependency with barriers alone, no semaphore and no register: what a budget
// too small for exactness falls back on (docs/allocator.md "Budgets"). Every barrier resets
// nothing, so the semaphores of the other waits keep their counts. Like the paper's fallback,
// but for every shape: a distance at some loop L, a barrier at the end of each iteration of L; a
// producer of the same iteration in an earlier statement of S, a barrier before the consumer's
// statement; one of the same straight-line region, a barrier inside the region between the
// producer's level and the consumer's in the region's graph of stream order and same-iteration
// dependencies (a cut: everything before it is closed under both, so it cuts no wait short).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "allocator/draft.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

struct GiveUp {
  enum class Kind : std::uint8_t { AtEnd, BeforeStmt, Cut };
  Kind kind = Kind::AtEnd;
  model::LoopId loop = model::kTop;  // AtEnd: L; BeforeStmt: S
  std::uint32_t stmt = 0;            // BeforeStmt: the consumer's statement in S's body
  std::uint32_t region = 0;          // Cut
  std::uint64_t cost = 0;            // barriers executed per run, every loop at its largest trip
  std::string how;
};

// How `d` can be left to barriers, or nothing (a producer later in the consumer's own iteration,
// which the spec cannot satisfy either; a distance that never binds needs no barrier at all).
std::optional<GiveUp> give_up_plan(const SpecFacts& facts, const analysis::DependencyInfo& d);

// Places the barriers of `deps` (every one with a plan) and decides them.
void apply_give_ups(const SpecFacts& facts, Draft& draft, const std::vector<std::size_t>& deps);

}  // namespace syncbisim::allocator
