#pragma once
// A set of engines, one bit each. From engine 64 on there are no bits: every such engine counts as
// in the set, so a program of more engines is treated as if all of them had moved (never as if
// one had not). The checker numbers the parts of a stored state like the engines, the global part
// last (statespace/state_codec.h), and keeps sets of parts in the same type.
#include <cstddef>
#include <cstdint>

namespace syncbisim::semantics {

class EngineSet {
 public:
  EngineSet() = default;
  static EngineSet all() { return EngineSet{~std::uint64_t{0}}; }
  static EngineSet of(std::size_t i) {
    EngineSet s;
    s.add(i);
    return s;
  }

  void add(std::size_t i) { bits_ |= bit(i); }
  void add(EngineSet o) { bits_ |= o.bits_; }
  // No effect from 64 on: such an engine stays in the set.
  void remove(std::size_t i) {
    if (i < 64) bits_ &= ~bit(i);
  }
  bool contains(std::size_t i) const { return i >= 64 || (bits_ >> i & 1U) != 0; }
  bool empty() const { return bits_ == 0; }
  void clear() { bits_ = 0; }
  bool operator==(const EngineSet&) const = default;

 private:
  explicit EngineSet(std::uint64_t bits) : bits_(bits) {}
  static std::uint64_t bit(std::size_t i) { return i < 64 ? std::uint64_t{1} << i : ~std::uint64_t{0}; }

  std::uint64_t bits_ = 0;
};

}  // namespace syncbisim::semantics
