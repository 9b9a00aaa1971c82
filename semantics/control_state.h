#pragma once
// The part of a state both systems share (paper §7.1 cs, κ, ifl): per engine where it is in its
// code, the loop frames on its path, how many trips of each loop it has started, and its
// in-flight list; globally, uniform trip choices made but not yet read by every engine.
// Plain values with no pointers, so states hash and compare by content.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "semantics/compiled_program.h"
#include "semantics/small_vec.h"

namespace syncbisim::semantics {

struct InFlight {
  InstrId instr = 0;
  bool committed = false;
  bool operator==(const InFlight&) const = default;
};

// A loop's frame on one engine: the iteration number inside the current trip (0 = not running)
// and the trip's count.
struct Frame {
  std::uint32_t iter = 0;
  std::uint32_t trip = 0;
  bool operator==(const Frame&) const = default;
};

struct EngineControl {
  std::uint32_t pc = 0;
  SmallVec<Frame, 8> frames;                 // by LoopId
  SmallVec<std::uint32_t, 8> trips_started;  // by LoopId; counted only where the rule needs it
  SmallVec<InFlight, 8> inflight;            // issue order; the head retires first
  bool operator==(const EngineControl&) const = default;
};

struct ControlState {
  SmallVec<EngineControl, 6> engines;
  // Per loop: the uniform range choices of trips [min over engines of trips_started, ...).
  SmallVec<SmallVec<std::uint32_t, 2>, 8> pending;
  bool operator==(const ControlState&) const = default;
};

// A fast, order-sensitive hash over 32-bit words.
struct Hasher {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  void add(std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
  }
};
void hash_into(Hasher& h, const ControlState& s);

}  // namespace syncbisim::semantics
