#pragma once
// Seconds since a point in time, for limits and progress lines.
#include <chrono>

namespace syncbisim::checker::detail {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace syncbisim::checker::detail
