#pragma once
// What a loop's trip rule says about its iteration counts, as the closed forms need it: a branch
// loop C.then / C.else runs 0 or 1 times per trip, decided by the cond's rule (value 0 = then).
#include <cstdint>
#include <optional>

#include "model/index.h"

namespace syncbisim::allocator {

// The fewest and the most iterations one trip of `l` may run on any engine.
std::uint32_t min_iterations(const model::LoopInfo& l);
std::uint32_t max_iterations(const model::LoopInfo& l);
// The one iteration count every trip of `l` runs on every engine, if there is one (a constant
// uniform rule, a sequence of equal values, a range min..min). @top runs once.
std::optional<std::uint32_t> constant_iterations(const model::LoopInfo& l);

}  // namespace syncbisim::allocator
