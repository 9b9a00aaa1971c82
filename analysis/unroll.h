#pragma once
// Unrolling a loop with a constant trip count, as a spec-to-spec transform (GitHub issue 13,
// docs/allocator.md "Unrolling", names in docs/formats.md): the loop statement is replaced by T
// copies of its body, and the dependencies are rewritten so that the unrolled spec owes exactly
// what the original owes. The unrolled spec is then allocated like any other; straight-line code
// gets static waits (paper §3.3, Figure 3). Copy k (1-based) renames every instruction, loop and
// cond id X inside the loop to "X.L.k" (L the unrolled loop's id).
//
// A dependency is rewritten from the instances it owes (paper §4, eq. (1)): the consumer waits
// for the last owed instance of its producer to retire, and instances of one producer retire in
// issue order, so one dependency on the copy holding that instance is exact. A copy whose target
// falls before the loop's first iteration owes nothing and is dropped; a producer in the loop
// with its consumer outside gets one dependency per copy. Where no dependency between copies
// can say exactly what is owed (a producer that may run 0 times in an iteration of the loop, a
// distance both at the loop and inside it, a nested backward producer at offset 0 moved into S
// itself), unrolling is refused with rule "unroll-inexact" rather than approximated.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::analysis {

// "X.L.k": the id copy k of the unrolled loop L gives to X.
std::string unrolled_name(const std::string& id, const std::string& loop, std::uint32_t copy);

// The most instructions, and the most dependencies, an unrolled spec may have unless the caller
// says otherwise (`--max-unroll`): unrolling multiplies both by the trip, and a trip of 2^32 - 1
// would exhaust memory before anything could be said.
inline constexpr std::uint64_t kDefaultMaxUnroll = 20000;

// Unrolls `loops` (ids of `spec`'s loops; innermost first, whatever the order given). Each needs
// a constant trip rule, the same on every engine, and no divergent rule inside. The result is
// normalized and validated. Rules: "unroll-unknown-loop", "unroll-not-constant",
// "unroll-divergent", "unroll-inexact", "unroll-name-clash", "unroll-too-large" (past
// `max_unroll` instructions or dependencies, counted before anything is built; 0: no limit).
model::Result<model::Program> unroll(const model::Program& spec, const model::ProgramIndex& ix,
                                     const std::vector<std::string>& loops,
                                     std::uint64_t max_unroll = kDefaultMaxUnroll);

// The loops of `spec` that `impl` has unrolled (docs/formats.md "Unrolled programs"): each loop L
// of the spec that the impl does not have while one of the impl's instructions is named
// "X.L.k" for an instruction X of the spec inside L (the name may carry further ".M.j" copies
// of loops unrolled with it, in any order). Empty when the impl keeps the spec's tree.
std::vector<std::string> unrolled_loops(const model::ProgramIndex& spec, const model::ProgramIndex& impl);

// The spec an impl that unrolls loops of `spec` is checked against: `spec` with those loops
// unrolled, which owes exactly what the original owes (docs/allocator.md "Unrolling"), instance k
// of X being X.L.k. Every command and the public API take a pair through this one function.
struct UnrolledSpec {
  model::Program program;
  model::ProgramIndex index;
  std::vector<std::string> loops;  // the loops unrolled, as unrolled_loops found them
  std::string note() const;        // "the impl unrolls loop A; checked against the spec with it unrolled ..."
};
// Nothing when the impl keeps the spec's tree; an error (the unroll's rule, its message saying
// which loop the impl unrolls) when the spec cannot be unrolled to match.
model::Result<std::optional<UnrolledSpec>> unrolled_to_match(const model::Program& spec, const model::ProgramIndex& ix,
                                                             const model::ProgramIndex& impl);

}  // namespace syncbisim::analysis
