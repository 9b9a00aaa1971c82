#pragma once
// Progress of a long command on stderr: on a terminal one line rewritten in place (at most ten
// times a second); in a log (stderr is a file or a pipe, as in CI) a plain line every 10 seconds
// (SYNCBISIM_PROGRESS_SECONDS sets another interval); nothing with --quiet. The caller says what
// the line holds.
#include <chrono>
#include <string>

namespace syncbisim::cli {

class ProgressLine {
 public:
  explicit ProgressLine(bool quiet, double log_interval_seconds = 10);
  // Prints `line` if it is due; `force` prints it now (a log's last line).
  void show(const std::string& line, bool force = false);
  // Clears the terminal line, if one was drawn.
  void finish();
  bool enabled() const { return !quiet_; }

 private:
  using Clock = std::chrono::steady_clock;
  bool quiet_, tty_;
  double interval_;
  Clock::time_point last_;
  bool drawn_ = false;
};

}  // namespace syncbisim::cli
