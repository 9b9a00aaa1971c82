#pragma once
// The limits of every search (one thread, threads, syncbisim-mpi's ranks): how often it looks at
// them, max-seconds and max-memory, and the exceptions that are limits, not errors. A search that
// meets one in the middle of a step stops there, inconclusive, keeps what it found and names the
// limit (docs/checker.md "Search"); anything else is passed on.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "semantics/lockstep.h"
#include "statespace/stopwatch.h"

namespace syncbisim::statespace {

// What every search (one thread, threads, MPI ranks) grants the step memo: bytes per state found
// (docs/checker.md "Step memo").
inline constexpr std::size_t kMemoBytesPerState = 4;
// The successors of one state between two looks at the clock and the bytes (one successor may cost
// 2^20 internal steps; a state may have billions: a range trip's choices).
inline constexpr std::uint64_t kLimitStride = 64;

// max-seconds or max-memory, whichever a search has passed (the clock first), counted from `t0`;
// `bytes()` is asked only under a memory limit. Nothing when neither is set or passed.
template <class Bytes>
std::optional<std::string> resource_limit_passed(double max_seconds, std::uint64_t max_memory, Clock::time_point t0,
                                                 Bytes&& bytes) {
  if (max_seconds > 0 && since(t0) > max_seconds) return seconds_limit(max_seconds);
  if (max_memory > 0 && bytes() > max_memory) return memory_limit(max_memory);
  return std::nullopt;
}

// The limit `e` names, if it is one: an allocation failed, or an engine ran
// Lockstep::kMaxInternalSteps internal steps within one step. Nothing for any other exception.
inline std::optional<std::string> limit_named_by(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return allocation_limit();
  } catch (const semantics::InternalStepLimit& l) {
    return std::string(l.what());
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace syncbisim::statespace
