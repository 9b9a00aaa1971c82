#pragma once
// Seconds since a point in time, for limits and progress lines.
#include <chrono>
#include <cstdio>
#include <string>

namespace syncbisim::checker::detail {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// "max-seconds 7" rather than "max-seconds 7.000000".
inline std::string seconds_limit(double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "max-seconds %g", seconds);
  return buf;
}

}  // namespace syncbisim::checker::detail
