#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace syncbisim::cli {

namespace {
// SYNCBISIM_PROGRESS_SECONDS overrides the log interval (a CI job that wants fewer lines, a test
// that wants one soon).
double interval_from_environment(double fallback) {
  const char* v = std::getenv("SYNCBISIM_PROGRESS_SECONDS");
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  return end && *end == '\0' && d >= 0 ? d : fallback;
}
}  // namespace

ProgressLine::ProgressLine(bool quiet, double log_interval_seconds)
    : quiet_(quiet),
      tty_(isatty(STDERR_FILENO) != 0),
      interval_(interval_from_environment(log_interval_seconds)),
      last_(Clock::now()) {}

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
