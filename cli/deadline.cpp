#include "cli/deadline.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "model/quote.h"

namespace syncbisim::cli {

namespace {

// The process's start in seconds since boot: field 22 of /proc/self/stat, in clock ticks. The
// command name (field 2) may hold spaces and parentheses, so the fields are counted from its end.
double start_since_boot() {
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) {
      const long ticks = sysconf(_SC_CLK_TCK);
      return ticks > 0 ? std::strtod(field.c_str(), nullptr) / static_cast<double>(ticks) : -1;
    }
  return -1;
}

double now_since_boot() {
  timespec t{};
  clock_gettime(CLOCK_BOOTTIME, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

}  // namespace

double seconds_since_process_start() {
  const double start = start_since_boot();
  if (start >= 0) return std::max(0.0, now_since_boot() - start);
  static const auto first = std::chrono::steady_clock::now();  // a fallback only: no /proc
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - first).count();
}

CommandDeadline::CommandDeadline(double max_seconds, std::string command)
    : max_seconds_(max_seconds), command_(std::move(command)) {
  if (max_seconds_ <= 0) return;
  const auto in = [](double seconds) {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  };
  const double remaining = max_seconds_ - seconds_since_process_start();
  soft_ = in(remaining);
  hard_ = in(remaining + kSlack);
  try {
    watcher_ = std::thread([this] { watch(); });
  } catch (const std::system_error&) {
    // No watcher: the searches still stop at left(); only a step that cannot stop itself is not cut.
  }
}

CommandDeadline::~CommandDeadline() {
  if (!watcher_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  watcher_.join();
}

double CommandDeadline::left() const {
  if (max_seconds_ <= 0) return 0;
  return std::max(0.01, max_seconds_ - seconds_since_process_start());
}

std::string CommandDeadline::as_given(const std::string& limit) const {
  if (max_seconds_ <= 0 || limit.rfind("max-seconds", 0) != 0) return limit;
  std::ostringstream out;
  out << "max-seconds " << max_seconds_;
  return out.str();
}

void CommandDeadline::phase(const std::string& what) {
  const std::lock_guard<std::mutex> lock(mutex_);
  phase_ = what;
}

void CommandDeadline::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_until(lock, soft_, [this] { return done_; })) return;
  expired_ = true;
  if (wake_.wait_until(lock, hard_, [this] { return done_; })) return;
  // Past the limit and its slack, in a step that does not stop itself: end the process here,
  // with nothing half-written on stdout (std::_Exit flushes no stream).
  std::ostringstream msg;
  msg << "syncbisim " << command_ << ": stopped at --max-seconds " << max_seconds_ << " while "
      << model::printable(phase_) << ": no verdict (inconclusive) [max-seconds]\n";
  const auto text = msg.str();
  [[maybe_unused]] const auto n = ::write(STDERR_FILENO, text.data(), text.size());
  std::_Exit(3);
}

}  // namespace syncbisim::cli
