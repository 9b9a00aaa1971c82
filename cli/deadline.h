#pragma once
// --max-seconds over the whole command, counted from the start of the process (issue 43):
// reading and unrolling the inputs, indexing, the prover and the search all count. Searches that
// stop themselves get the seconds left (left()), so they end with their own inconclusive report;
// a step that cannot stop itself (an unroll, a Z3 query, a read from a FIFO with no writer) is cut
// by a watcher thread a moment after the limit: one line on stderr naming the limit and the phase,
// nothing on stdout, exit status 3. Neither copied nor moved (its thread holds `this`).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace syncbisim::cli {

// Seconds since this process started (Linux: /proc/self/stat), or since the first call where that
// cannot be read.
double seconds_since_process_start();

class CommandDeadline {
 public:
  // The watcher's slack past the limit: a search that stops itself has this long to report.
  static constexpr double kSlack = 1.5;

  // max_seconds <= 0: no limit and no thread. `command` names it in the message ("check").
  CommandDeadline(double max_seconds, std::string command);
  ~CommandDeadline();
  CommandDeadline(const CommandDeadline&) = delete;
  CommandDeadline& operator=(const CommandDeadline&) = delete;

  bool limited() const { return max_seconds_ > 0; }
  // The seconds a search may still take (0 when there is no limit; never below a few
  // milliseconds when there is one, so that a search started late still answers inconclusive).
  double left() const;
  // A search's limit as the user gave it: the search saw only the seconds left, so its own
  // "max-seconds 0.87" becomes "max-seconds 2" (any other limit is returned as it is).
  std::string as_given(const std::string& limit) const;
  // Set at the limit itself (before the watcher's slack): for a loop that polls a stop flag, and
  // an external allocator in flight, which is then stopped.
  const std::atomic<bool>& expired() const { return expired_; }
  // What the command does now, for the message if the watcher has to cut it.
  void phase(const std::string& what);

 private:
  void watch();
  double max_seconds_;
  std::string command_;
  std::chrono::steady_clock::time_point soft_, hard_;  // the limit, and the limit plus kSlack
  std::atomic<bool> expired_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::string phase_ = "starting";
  std::thread watcher_;
};

}  // namespace syncbisim::cli
