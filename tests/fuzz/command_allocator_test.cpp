// An allocator as a command (docs/fuzzing.md): every way it can answer is its own value, and
// none crashes or hangs the tool. Each failure class has a command of its own here: one that
// crashes, one that hangs (and leaves a child behind), one that prints garbage, one that changes
// the tree, one that declines.
#include <doctest/doctest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "formats/load.h"
#include "fuzz/allocated_case.h"
#include "fuzz/command_allocator.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

constexpr const char* kSpec = R"(syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: P
  E1: C
}
dep P -> C
)";

// The per-instruction allocation of kSpec, as a person would write it.
constexpr const char* kImpl = R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A {
  E0: P {s += 1}
  E1: [r := r + 1] {s >= r} C
}
)";

struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    dir = std::filesystem::temp_directory_path() / ("sb-cmd-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& content) const {
    const auto p = dir / name;
    std::ofstream(p) << content;
    return p.string();
  }
};

formats::LoadedProgram spec() {
  auto s = formats::load_program_text(kSpec, "spec");
  REQUIRE(s.ok());
  return std::move(*s);
}

fuzz::AllocatorReply ask(const std::string& command, double timeout = 10) {
  const auto s = spec();
  fuzz::CommandOptions o;
  o.command = command;
  o.timeout_seconds = timeout;
  return fuzz::command_allocator(o)(s.program, s.index);
}

fuzz::AllocatedCase judge(const std::string& command, double timeout = 10) {
  const auto s = spec();
  fuzz::CommandOptions o;
  o.command = command;
  o.timeout_seconds = timeout;
  fuzz::JudgeOptions j;
  j.check.policy = fuzz::Counts::AllOnAllocatable;
  return fuzz::allocate_and_check(fuzz::command_allocator(o), s.program, s.index, j);
}

std::optional<fuzz::AllocatorFault> fault_of(const fuzz::AllocatedCase& c) {
  if (!c.failure) return std::nullopt;
  if (const auto* f = std::get_if<fuzz::AllocatorFault>(&*c.failure)) return *f;
  return std::nullopt;
}

// The command's answer, judged, is the fault `f`, its message naming `what` where given.
void check_fault(const std::string& command, fuzz::AllocatorFault f, const char* what) {
  const auto c = judge(command);
  REQUIRE(fault_of(c) == f);
  if (what) CHECK(c.what.find(what) != std::string::npos);
}

bool alive(pid_t pid) { return ::kill(pid, 0) == 0; }

}  // namespace

TEST_CASE("a command gets the spec on stdin and in $SYNCBISIM_SPEC, no terminal, and its impl is checked") {
  const Scratch tmp;
  const auto impl = tmp.write("impl.sb", kImpl);
  // Fails (declines) unless stdin is the spec file's content, stdin is no terminal and there is
  // no controlling terminal to open.
  const std::string cmd =
      "test -t 0 && exit 5; cmp -s - \"$SYNCBISIM_SPEC\" || exit 4; "
      "(exec 3</dev/tty) 2>/dev/null && exit 6; cat '" +
      impl + "'";
  const auto c = judge(cmd);
  INFO(c.what, " ", c.reply.errors);
  REQUIRE(!c.declined);
  REQUIRE(!c.failure);
  REQUIRE(c.check);
  CHECK(c.check->check.verdict == checker::Verdict::Bisimilar);
  // What it printed is kept for the files of a failure.
  CHECK(c.reply.output == kImpl);
}

TEST_CASE("the spec a command reads is canonical JSON that loads back to the same program") {
  const Scratch tmp;
  const auto copy = tmp.dir / "seen.json";
  const auto r = ask("cat > '" + copy.string() + "'; exit 1");
  REQUIRE(std::holds_alternative<fuzz::Declined>(r.answer));
  auto seen = formats::load_program_file(copy.string());
  REQUIRE(seen.ok());
  CHECK(seen->program == spec().program);
  CHECK(test::read_text(copy).find("\"syncbisim\": \"spec/1\"") != std::string::npos);
}

TEST_CASE("a non-zero exit declines, with the first line of stderr") {
  const auto c = judge("echo; echo 'no nested loops here' >&2; echo second >&2; exit 3");
  CHECK(c.declined);
  CHECK(!c.failure);
  CHECK(std::get<fuzz::Declined>(c.reply.answer).reason == "exit status 3: no nested loops here");
}

TEST_CASE("a crashing allocator is a crash, also when the shell reports the signal as 128 + N") {
  for (const char* cmd : {"kill -SEGV $$", "sh -c 'kill -ABRT $$'", "exec sh -c 'kill -SEGV $$'"}) {
    INFO(cmd);
    const auto c = judge(cmd);
    REQUIRE(fault_of(c) == fuzz::AllocatorFault::Crash);
    CHECK(c.what.find("SIG") != std::string::npos);
  }
}

TEST_CASE("a hanging allocator times out, and its whole process group is killed") {
  const Scratch tmp;
  const auto pids = tmp.dir / "pids";
  // The shell and a background child of its own both hang.
  const std::string cmd = "echo $$ > '" + pids.string() + "'; sleep 60 & echo $! >> '" + pids.string() + "'; wait";
  const auto t0 = std::chrono::steady_clock::now();
  const auto c = judge(cmd, 0.3);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(fault_of(c) == fuzz::AllocatorFault::Timeout);
  CHECK(took < 5);
  std::ifstream in(pids);
  std::vector<pid_t> started;
  for (pid_t p; in >> p;) started.push_back(p);
  REQUIRE(started.size() == 2);
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {  // the orphaned sleep is reaped by init shortly after
    gone = !alive(started[0]) && !alive(started[1]);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(gone);
}

TEST_CASE("an allocator that exits but leaves a child holding the pipes does not hang the tool") {
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = ask("(sleep 30 &) ; echo garbage; exit 0", 20);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(took < 5);
  REQUIRE(std::holds_alternative<fuzz::Faulted>(r.answer));
  CHECK(std::get<fuzz::Faulted>(r.answer).fault == fuzz::AllocatorFault::BadOutput);
}

TEST_CASE("output that is no impl program is bad output, with the reader's diagnostic") {
  using fuzz::AllocatorFault;
  SUBCASE("garbage") { check_fault("echo 'this is not a program'", AllocatorFault::BadOutput, "[syntax]"); }
  SUBCASE("a spec instead of an impl") { check_fault("cat", AllocatorFault::BadOutput, "wrong-kind"); }
  SUBCASE("nothing at all") { check_fault("true", AllocatorFault::BadOutput, nullptr); }
  SUBCASE("an undeclared semaphore") {
    check_fault("printf 'engines E0 E1\\nloop A {\\n E0: P {s += 1}\\n E1: C\\n}\\n'", AllocatorFault::BadOutput,
                "undeclared-semaphore");
  }
}

TEST_CASE("an impl whose tree differs from the spec's is a tree mismatch that names the place") {
  check_fault("printf 'syncbisim impl/1\\nengines E0 E1\\nloop A {\\n  E0: P\\n}\\nE1: C\\n'",
              fuzz::AllocatorFault::TreeMismatch, "does not correspond");
}

TEST_CASE("a text impl without a header is read as an impl even with no synchronization in it") {
  // The spec has no dependency here: an impl without any wait is right, and must not be taken
  // for a spec because nothing in it is impl-only syntax.
  constexpr const char* kNoDeps = "syncbisim spec/1\nengines E0\nE0: I0\n";
  auto s = formats::load_program_text(kNoDeps, "spec");
  REQUIRE(s.ok());
  fuzz::CommandOptions o;
  o.command = "printf 'engines E0\\nE0: I0\\n'";
  const auto r = fuzz::command_allocator(o)(s->program, s->index);
  CHECK(std::holds_alternative<fuzz::Allocated>(r.answer));
}

TEST_CASE("a stop request kills the command in flight and marks the reply stopped") {
  const auto s = spec();
  std::atomic<bool> stop{false};
  fuzz::CommandOptions o;
  o.command = "sleep 60";
  o.stop = &stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = fuzz::command_allocator(o)(s.program, s.index);
  stopper.join();
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 5);
  CHECK(r.stopped);
}

TEST_CASE("shell quoting survives quotes in the command") {
  CHECK(fuzz::shell_quote("a'b") == "'a'\\''b'");
  const auto r = ask("echo \"it's\" >&2; exit 1");
  CHECK(std::get<fuzz::Declined>(r.answer).reason == "exit status 1: it's");
}
