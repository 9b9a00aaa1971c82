#pragma once
// Registers by liveness (docs/allocator.md "Reusing registers and semaphores"): per engine, two
// registers that are never live at once (analysis/register_liveness.h) share one cell, as a
// register allocator colours its interference graph. A register whose initial 0 is read (a
// monotone counter r_ℓ, a trip register) first gets an explicit `x := 0` before the top-level
// statement where the engine first names it, so that it is not live from the program's start;
// the reset stays only where the cell it lands in was used before. The impl's behaviour is
// unchanged: every read sees the value the same write gave it.
#include <cstddef>

#include "model/program.h"

namespace syncbisim::allocator {

struct RegisterReuse {
  std::size_t before = 0, after = 0;  // the largest engine's register count
  std::size_t resets = 0;             // `x := 0` added
};

RegisterReuse reuse_registers(model::Program& impl, unsigned jobs = 1);

}  // namespace syncbisim::allocator
