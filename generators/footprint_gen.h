#pragma once
// Kernels with memory footprints for the fuzz campaign (issue 40, docs/footprints.md): a spec
// tree without conds (footprints under a cond are refused) and without written dependencies,
// whose instructions read, write and accumulate into a few small buffers at indices that follow
// the loops around them (i, i + 1, i mod 2: the rotating buffers of real kernels), at constants
// or over whole dimensions. The campaign derives the dependency graph from them (footprint::
// derive) and hands the allocator that graph, as a compiler would.
#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "generators/spec_gen.h"
#include "model/program.h"

namespace syncbisim::generators {

// One access of one instruction, resolved against the finished tree like a dependency pick.
struct FootprintPick {
  std::uint32_t instr = 0;      // modulo the instructions
  std::uint32_t kind = 0;       // read, read, write, write, accumulate (modulo 5)
  std::uint32_t buffer = 0;     // modulo the buffers
  std::uint32_t subscript = 0;  // constant, i, i + 1, i mod 2, whole dimension (modulo 5)
  std::uint32_t loop = 0;       // which loop around the instruction an index follows
};

// Buffers b0.. of one dimension of size max_trip + 1 (so i + 1 stays inside) in SBUF, and the
// picks' accesses. `p` must have ids (assign_ids) and no conds.
void attach_footprints(model::Program& p, const std::vector<FootprintPick>& picks, std::uint32_t buffers,
                       std::uint32_t max_trip);

// A spec drawn under a swarm configuration of `base` with conds off and no written dependency,
// then 1..3 buffers and up to three accesses per instruction.
rc::Gen<model::Program> gen_footprint_spec(SpecGenOptions base);

}  // namespace syncbisim::generators
