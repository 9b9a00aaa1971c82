#pragma once
// The part of a state both systems share (paper §7.1 cs, κ, ifl): per engine where it is in its
// code, the loop frames on its path, how many trips of each loop it has started, and its
// in-flight list; globally, uniform trip choices made but not yet read by every engine.
// Plain values with no pointers, so states hash and compare by content.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
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
  // A run of words and its length. A state's long parts (per instruction, per loop) are tens of
  // thousands of words on a kernel of a thousand loop nests: add() per word is one chain of
  // multiplies, each waiting for the last, and was most of a random walk's time there. Four
  // independent lanes of 64-bit words (the round of xxHash64) let the multiplies overlap.
  template <class T>
  void add_run(const T* p, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T>,
                  "words with no padding: equal values, equal bytes");
    const auto* bytes = reinterpret_cast<const unsigned char*>(p);
    const std::size_t size = n * sizeof(T);
    std::size_t i = 0;
    if (size >= 32) {
      // Four named lanes, not an array: the compiler keeps them in registers.
      std::uint64_t a = h + kP1 + kP2, b = h + kP2, c = h, d = h - kP1;
      for (; i + 32 <= size; i += 32) {
        a = round(a, load(bytes + i));
        b = round(b, load(bytes + i + 8));
        c = round(c, load(bytes + i + 16));
        d = round(d, load(bytes + i + 24));
      }
      h ^= rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
      h *= kP1;
    }
    for (; i + 8 <= size; i += 8) add(load(bytes + i));
    if (i < size) {
      std::uint64_t tail = 0;
      std::memcpy(&tail, bytes + i, size - i);
      add(tail);
    }
    add(n);
  }

 private:
  static constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ULL, kP2 = 0xC2B2AE3D27D4EB4FULL;
  static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  static std::uint64_t load(const unsigned char* b) {
    std::uint64_t v;
    std::memcpy(&v, b, 8);
    return v;
  }
  static std::uint64_t round(std::uint64_t acc, std::uint64_t w) { return rotl(acc + w * kP2, 31) * kP1; }
};
void hash_into(Hasher& h, const ControlState& s);

}  // namespace syncbisim::semantics
