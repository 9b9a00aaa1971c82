#pragma once
// Running a user's command the way the allocator protocol promises (docs/fuzzing.md "An
// allocator as a command"): under /bin/sh -c, in a session of its own (no controlling terminal,
// its own process group), a file as its stdin (never ours), stdout and stderr captured, a
// deadline, and the whole process group killed when the run is over, so nothing it started
// outlives it.
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace syncbisim::fuzz::detail {

struct SubprocessOptions {
  std::string command;     // run as /bin/sh -c COMMAND
  std::string stdin_path;  // opened read-only as the child's stdin
  std::vector<std::pair<std::string, std::string>> env;  // set on top of the inherited environment
  double timeout_seconds = 10;                           // 0: no deadline
  std::size_t max_output_bytes = std::size_t{64} << 20;  // per stream; more ends the run
  const std::atomic<bool>* stop = nullptr;               // when it becomes true, the run is killed
};

enum class SubprocessEnd : std::uint8_t {
  Exited,          // `code` is the exit status
  Signalled,       // `code` is the signal that ended it
  TimedOut,        // the deadline passed; the group was killed
  Stopped,         // `stop` became true; the group was killed
  OutputTooLarge,  // a stream passed max_output_bytes; the group was killed
  SpawnFailed,     // `code` is the errno of the failed call, `err` says which
};

struct SubprocessResult {
  SubprocessEnd end = SubprocessEnd::Exited;
  int code = 0;
  std::string out, err;
  double seconds = 0;
};

SubprocessResult run_shell(const SubprocessOptions& options);

}  // namespace syncbisim::fuzz::detail
