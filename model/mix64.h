#pragma once
// SplitMix64's finalizer: a fixed bijection of 64-bit words that spreads nearby inputs over the
// whole range. The fuzzer derives each run's seed with it (fuzz/campaign.cpp) and the prover
// spreads its atoms' ids (prover/detail/smt.cpp); one copy, here at the bottom layer.
#include <cstdint>

namespace syncbisim::model {

constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace syncbisim::model
