#include "cli/interrupt.h"

#include <pthread.h>
#include <unistd.h>

#include <cstdlib>

namespace syncbisim::cli {

namespace {
sigset_t watched() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGUSR1);  // the destructor's wake-up call
  return s;
}
}  // namespace

InterruptWatch::InterruptWatch() {
  const sigset_t s = watched();
  pthread_sigmask(SIG_BLOCK, &s, &previous_);
  watcher_ = std::thread([this] {
    const sigset_t set = watched();
    for (;;) {
      int sig = 0;
      if (sigwait(&set, &sig) != 0) continue;
      if (sig == SIGUSR1) return;
      if (stop_.exchange(true)) std::_Exit(130);  // the second Ctrl-C: do not wait any longer
      static const char msg[] = "\ninterrupted: finishing the runs in flight (Ctrl-C again to quit at once)\n";
      [[maybe_unused]] auto n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
    }
  });
}

InterruptWatch::~InterruptWatch() {
  pthread_kill(watcher_.native_handle(), SIGUSR1);
  watcher_.join();
  // A signal that arrived after the watcher left stays pending; drop it before unblocking.
  const sigset_t s = watched();
  timespec zero{0, 0};
  while (sigtimedwait(&s, nullptr, &zero) > 0) {}
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace syncbisim::cli
