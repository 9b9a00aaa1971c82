#pragma once
// Shortening a witness by search (docs/prover.md "Refutations"): the pair with the witness's trip
// counts fixed as constants (each a value the original rule allows, so every run of it is a run of
// the original) is explored breadth-first within a small budget; a violation of the same kind at
// the consumer gives a shortest trace, which is translated back into a trace of the original pair
// (its trip choices become steps) and kept only if the original semantics end in the same
// disagreement. The directed run stays the witness whenever this finds nothing.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/program_pair.h"
#include "model/program.h"
#include "semantics/lockstep.h"

namespace syncbisim::prover {

struct ShortenRequest {
  std::map<semantics::LoopId, std::uint32_t> trips;  // compiled ids; a cond's then-loop: 0 then, 1 else
  semantics::InstrId consumer = 0;
  semantics::EngineId engine = 0;
  bool under = true;  // the kind: under-sync (else over-sync)
  std::uint64_t max_states = 200000;
  double max_seconds = 5;
};

struct ShortTrace {
  std::vector<semantics::Step> steps;
  semantics::Mismatch mismatch;  // at the last state
};

// A trace of the original pair shorter than `than` steps ending in such a mismatch, if found.
std::optional<ShortTrace> shorter_trace(const model::Program& spec, const model::Program& impl,
                                        const checker::ProgramPair& original, const ShortenRequest& r,
                                        std::size_t than);

}  // namespace syncbisim::prover
