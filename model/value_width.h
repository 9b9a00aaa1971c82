#pragma once
// The hardware's widths for register and semaphore values (issue 18, class 3). The paper's values
// are unbounded naturals (paper §4); hardware keeps them in fixed-width cells, so a monotone counter
// of a long dynamic loop can pass the largest value a cell holds. A value past its width is an
// `overflow` finding (docs/semantics.md), reported with the trace that reaches it, never wrapped.
//
// Defaults: 32-bit registers and signed 32-bit semaphores (largest value 2^31 - 1), as on Trainium
// (docs/semantics.md, "Widths", gives the source).
#include <cstdint>

namespace syncbisim::model {

struct ValueWidths {
  unsigned register_bits = 32;   // 1..64: a register holds 0 .. 2^register_bits - 1
  unsigned semaphore_bits = 32;  // 2..64, two's complement: a semaphore holds up to 2^(bits-1) - 1
  bool operator==(const ValueWidths&) const = default;

  // The largest value a register holds.
  std::uint64_t register_max() const {
    return register_bits >= 64 ? UINT64_MAX : (std::uint64_t{1} << register_bits) - 1;
  }
  // The largest value a (signed) semaphore holds.
  std::uint64_t semaphore_max() const {
    return semaphore_bits >= 64 ? std::uint64_t{INT64_MAX} : (std::uint64_t{1} << (semaphore_bits - 1)) - 1;
  }
};

}  // namespace syncbisim::model
