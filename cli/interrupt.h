#pragma once
// Ctrl-C (SIGINT) and SIGTERM as a flag that a long command polls, so a campaign stops cleanly
// with what it found (docs/fuzzing.md). No signal handler and no global: while a watch lives the
// two signals are blocked in this thread and in every thread started after it, and one watcher
// thread takes them with sigwait. A second signal ends the process at once (exit status 130).
#include <signal.h>

#include <atomic>
#include <thread>

namespace syncbisim::cli {

// Neither copied nor moved (its flag and its thread are neither).
class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();

  const std::atomic<bool>& flag() const { return stop_; }
  bool interrupted() const { return stop_.load(); }

 private:
  std::atomic<bool> stop_{false};
  sigset_t previous_{};
  std::thread watcher_;
};

}  // namespace syncbisim::cli
