#pragma once
// Common-subexpression elimination of register operations within one straight-line stream (paper
// §6.2: consumers sharing enclosing loops share the register reads, the masking isGT and the
// partial sums of their wait values). Every non-trivial subexpression that two register
// operations of one engine's stream in one block compute from the same register values is
// computed once, into a register of its own ("cse1", "cse2", ...), just before its first use.
// Values are unchanged (the registers an operand reads are not written in between), so a shared
// impl is bisimilar to its spec exactly when the unshared one is; only the ALU work per issue
// drops. Opt-in (allocator::Options::share_wait_values, `allocate --share-waits`).
#include "model/program.h"

namespace syncbisim::allocator {

// Rewrites `impl` in place; returns the number of shared subexpressions introduced.
std::size_t share_wait_values(model::Program& impl);

}  // namespace syncbisim::allocator
