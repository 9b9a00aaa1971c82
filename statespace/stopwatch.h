#pragma once
// Seconds since a point in time, for limits and progress lines.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace syncbisim::statespace {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// "max-seconds 7" rather than "max-seconds 7.000000".
inline std::string seconds_limit(double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "max-seconds %g", seconds);
  return buf;
}

// "max-memory 64M" for a limit of 64 MiB, as check --max-memory takes it.
inline std::string memory_limit(std::uint64_t bytes) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20, kGiB = std::uint64_t{1} << 30;
  if (bytes % kGiB == 0) return "max-memory " + std::to_string(bytes / kGiB) + "G";
  if (bytes % kMiB == 0) return "max-memory " + std::to_string(bytes / kMiB) + "M";
  return "max-memory " + std::to_string(bytes);
}

// The limit an allocation failure (std::bad_alloc) names: the search stops there, inconclusive,
// with what it found so far (docs/checker.md "Search").
inline std::string allocation_limit() { return "memory (an allocation failed)"; }

}  // namespace syncbisim::statespace
