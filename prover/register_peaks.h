#pragma once
// Upper bounds on every value an engine's registers take, by walking its stream in order
// (docs/prover.md "Overflow"): an abstract run in which each register holds the largest value it
// can have at that point. Loops run their iterations one by one up to their largest trip, the
// states after 0, 1, ... iterations joined; a cond joins its two branches. It is tighter than
// bounding each register over the whole program where one register cell is reused for many values
// (docs/allocator.md "Reusing registers and semaphores": a base register summed along a chain, a
// counter reset at each nest), which read themselves and have no bound of the whole-program kind.
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "model/index.h"
#include "prover/places.h"

namespace syncbisim::prover {

inline constexpr std::uint64_t kNoBound = UINT64_MAX;  // saturated: 2^64 - 1 or more, or unknown

// Sums and products of bounds, saturating at kNoBound (the overflow questions' trip bounds use
// them too, prover/overflow.cpp).
inline std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return a > kNoBound - b ? kNoBound : a + b; }
inline std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kNoBound / b ? kNoBound : a * b;
}

struct RegisterPeaksOptions {
  // Iterations of one loop run one by one before the registers still changing are given up
  // (kNoBound); a loop whose state stops changing earlier ends there.
  std::uint64_t iterations_per_loop = 64;
  // Register writes evaluated in all; past it every register of the engine is kNoBound (the
  // bound is then the whole-program one, or Z3's).
  std::uint64_t max_writes = 20'000'000;
};

// For each register e writes: at least every value any write of it computes (each constant, sum
// and product on the way and the value written, docs/semantics.md "Widths"), or kNoBound.
// `trip_hi(l)`: the largest trip of loop l on e (kNoBound: no rule bounds it).
std::map<std::string, std::uint64_t> register_peaks(const Places& places, model::EngineId e,
                                                    const std::function<std::uint64_t(model::LoopId)>& trip_hi,
                                                    const RegisterPeaksOptions& o = {});

}  // namespace syncbisim::prover
