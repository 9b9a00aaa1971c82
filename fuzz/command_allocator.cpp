#include "fuzz/command_allocator.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "formats/json_format.h"
#include "fuzz/detail/subprocess.h"

namespace syncbisim::fuzz {

namespace {

// A spec file of its own for one call, removed when the call is over.
class SpecFile {
 public:
  SpecFile(const std::string& dir, const std::string& content) {
    std::string pattern = (std::filesystem::path(dir) / "syncbisim-spec-XXXXXX.json").string();
    const int fd = ::mkstemps(pattern.data(), 5);
    if (fd < 0) {
      error_ = "cannot create a spec file in " + dir + ": " + std::strerror(errno);
      return;
    }
    path_ = pattern;
    std::size_t done = 0;
    while (done < content.size()) {
      const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = "cannot write " + path_ + ": " + std::strerror(errno);
        break;
      }
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  }
  SpecFile(const SpecFile&) = delete;
  SpecFile& operator=(const SpecFile&) = delete;
  ~SpecFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }

 private:
  std::string path_, error_;
};

std::string scratch_directory(const std::string& given) {
  if (!given.empty()) return given;
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

bool is_crash_signal(int sig) {
  for (int s : {SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGKILL, SIGSEGV, SIGSYS})
    if (sig == s) return true;
  return false;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string command_invocation(const std::string& command, const std::string& spec_path) {
  return "SYNCBISIM_SPEC=" + shell_quote(spec_path) + " sh -c " + shell_quote(command) + " < " + shell_quote(spec_path);
}

AllocateFn command_allocator(CommandOptions options) {
  return [o = std::move(options)](const model::Program& spec, const model::ProgramIndex&) {
    AllocatorReply reply;
    const SpecFile file(scratch_directory(o.scratch_dir), formats::write_json(spec));
    if (!file.error().empty()) {
      reply.answer = Faulted{AllocatorFault::Error, file.error()};
      return reply;
    }
    detail::SubprocessOptions run;
    run.command = o.command;
    run.stdin_path = file.path();
    run.env = {{"SYNCBISIM_SPEC", file.path()}};
    run.timeout_seconds = o.timeout_seconds;
    run.max_output_bytes = o.max_output_bytes;
    run.stop = o.stop;
    auto r = detail::run_shell(run);
    using detail::SubprocessEnd;
    if (r.end == SubprocessEnd::Exited && r.code == 0)
      return reply_from_output(std::move(r.out), std::move(r.err), r.seconds);
    // /bin/sh reports a command killed by signal N as exit status 128 + N (dash does not exec
    // the command it runs): for the signals that mean a crash, that is a crash too.
    if (r.end == SubprocessEnd::Exited && r.code > 128 && is_crash_signal(r.code - 128)) {
      r.end = SubprocessEnd::Signalled;
      r.code -= 128;
    }
    switch (r.end) {
      case SubprocessEnd::Exited: {
        auto why = first_line(r.err);
        reply.answer = Declined{"exit status " + std::to_string(r.code) + (why.empty() ? "" : ": " + why)};
        break;
      }
      case SubprocessEnd::Signalled:
        reply.answer = Faulted{AllocatorFault::Crash, "killed by " + signal_name(r.code) +
                                                          (first_line(r.err).empty() ? "" : ": " + first_line(r.err))};
        break;
      case SubprocessEnd::TimedOut:
        reply.answer = Faulted{AllocatorFault::Timeout, "no answer within " + seconds_text(o.timeout_seconds) +
                                                            " s (allocator-timeout); its process group was killed"};
        break;
      case SubprocessEnd::OutputTooLarge:
        reply.answer = Faulted{AllocatorFault::BadOutput,
                               "more than " + std::to_string(o.max_output_bytes >> 20) +
                                   " MiB of output on one stream (--allocator-max-output); its process group was killed"};
        break;
      case SubprocessEnd::Stopped:
        reply.answer = Faulted{AllocatorFault::Error, "stopped (the campaign was interrupted)"};
        reply.stopped = true;
        break;
      case SubprocessEnd::SpawnFailed: reply.answer = Faulted{AllocatorFault::Error, r.err}; break;
    }
    reply.output = std::move(r.out);
    reply.errors = std::move(r.err);
    reply.seconds = r.seconds;
    return reply;
  };
}

}  // namespace syncbisim::fuzz
