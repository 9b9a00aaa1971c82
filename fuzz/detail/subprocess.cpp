#include "fuzz/detail/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;  // POSIX: the process environment, copied into the child's

namespace syncbisim::fuzz::detail {

namespace {

using Clock = std::chrono::steady_clock;

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const auto& [k, v] : extra) replaced |= entry.compare(0, k.size() + 1, k + "=") == 0;
    if (!replaced) env.push_back(entry);
  }
  for (const auto& [k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

SubprocessResult spawn_failure(const char* what, int err) {
  SubprocessResult r;
  r.end = SubprocessEnd::SpawnFailed;
  r.code = err;
  r.err = std::string(what) + ": " + std::strerror(err);
  return r;
}

// pidfd_open (Linux 5.3): lets poll() wake the moment the child exits. Without it the loop
// below polls in short slices.
int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

// True once the child has exited; it stays a zombie (WNOWAIT), so its pid, which is also its
// process group's id, cannot be reused before we have killed the group and reaped it.
bool has_exited(pid_t pid) {
  siginfo_t info{};
  info.si_pid = 0;
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
  return info.si_pid == pid;
}

// Reads what is there; false at end of file.
bool drain(int fd, std::string& into) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return false;
    return errno == EAGAIN || errno == EINTR;
  }
}

}  // namespace

SubprocessResult run_shell(const SubprocessOptions& o) {
  const auto t0 = Clock::now();
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return spawn_failure("pipe", errno);
  Fd out_r(out_pipe[0]), out_w(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return spawn_failure("pipe", errno);
  Fd err_r(err_pipe[0]), err_w(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, o.stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_w.fd, 2);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);  // nothing else of ours leaks into it

  // A session of its own: no controlling terminal, and a process group we can kill whole. The
  // signal mask and dispositions are reset, since ours may block SIGINT (cli/interrupt.h).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  sigset_t none, defaults;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attr, &defaults);

  const auto env = child_environment(o.env);
  std::vector<char*> envp;
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::string sh = "/bin/sh", dash_c = "-c", command = o.command;
  char* argv[] = {sh.data(), dash_c.data(), command.data(), nullptr};

  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (spawned != 0) return spawn_failure("posix_spawn /bin/sh", spawned);
  out_w.reset();
  err_w.reset();
  ::fcntl(out_r.fd, F_SETFL, O_NONBLOCK);
  ::fcntl(err_r.fd, F_SETFL, O_NONBLOCK);
  Fd pidfd(open_pidfd(pid));

  SubprocessResult r;
  bool out_open = true, err_open = true, exited = false, killed = false;
  const auto kill_group = [&](SubprocessEnd why) {
    ::kill(-pid, SIGKILL);
    if (!killed) r.end = why;
    killed = true;
  };
  // The child may exit while something it started still holds the pipes: after its exit the
  // group is killed, and what is left in the pipes is read for at most this long.
  Clock::time_point drain_deadline{};
  for (;;) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!killed && o.stop && o.stop->load(std::memory_order_relaxed)) kill_group(SubprocessEnd::Stopped);
    if (!killed && o.timeout_seconds > 0 && elapsed >= o.timeout_seconds) kill_group(SubprocessEnd::TimedOut);
    if (!exited && has_exited(pid)) {
      exited = true;
      ::kill(-pid, SIGKILL);  // whatever it left running in its group
      drain_deadline = Clock::now() + std::chrono::milliseconds(200);
    }
    if ((!out_open && !err_open && exited) || (exited && Clock::now() > drain_deadline)) break;
    if (killed && !out_open && !err_open) {
      if (!exited) {
        // Killed; the pipes are closed, so only the reaping is left.
        exited = has_exited(pid);
        if (!exited) ::usleep(1000);
        continue;
      }
      break;
    }
    pollfd fds[3];
    nfds_t n = 0;
    if (out_open) fds[n++] = {out_r.fd, POLLIN, 0};
    if (err_open) fds[n++] = {err_r.fd, POLLIN, 0};
    const bool watch_pid = pidfd.fd >= 0 && !exited;
    if (watch_pid) fds[n++] = {pidfd.fd, POLLIN, 0};
    // Wake at least every 50 ms for the stop flag and the deadline; without a pidfd, every
    // millisecond once the pipes are closed (the child is about to exit).
    int wait_ms = 50;
    if (!watch_pid && !exited && !out_open && !err_open) wait_ms = 1;
    if (n == 0) {
      ::usleep(static_cast<useconds_t>(wait_ms) * 1000);
      continue;
    }
    ::poll(fds, n, wait_ms);
    if (out_open) out_open = drain(out_r.fd, r.out);
    if (err_open) err_open = drain(err_r.fd, r.err);
    if (!killed && (r.out.size() > o.max_output_bytes || r.err.size() > o.max_output_bytes))
      kill_group(SubprocessEnd::OutputTooLarge);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!killed) {
    if (WIFSIGNALED(status)) {
      r.end = SubprocessEnd::Signalled;
      r.code = WTERMSIG(status);
    } else {
      r.end = SubprocessEnd::Exited;
      r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    }
  }
  return r;
}

}  // namespace syncbisim::fuzz::detail
