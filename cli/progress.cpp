#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace syncbisim::cli {

ProgressLine::ProgressLine(bool quiet, double log_interval_seconds)
    : quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0), interval_(log_interval_seconds), last_(Clock::now()) {}

void ProgressLine::show(const std::string& line, bool force) {
  if (quiet_) return;
  const auto now = Clock::now();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (!force && since < (tty_ ? 0.1 : interval_)) return;
  last_ = now;
  if (tty_) {
    std::fprintf(stderr, "\r%s\033[K", line.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace syncbisim::cli
