#pragma once
// A user's allocator as a command (docs/fuzzing.md "An allocator as a command"): it runs under
// /bin/sh -c, reads the spec as canonical JSON on stdin (the same file's path is in
// $SYNCBISIM_SPEC), writes the impl (JSON or text) on stdout and exits 0. A non-zero exit is a
// refusal (Declined, with the first line of its stderr); a signal, the deadline, output that does
// not parse are faults (AllocatorReply). It never gets our terminal or our stdin.
#include <atomic>
#include <cstddef>
#include <string>

#include "fuzz/allocate_fn.h"

namespace syncbisim::fuzz {

struct CommandOptions {
  std::string command;
  double timeout_seconds = 10;              // fuzz --allocator-timeout; 0: none
  std::string scratch_dir;                  // where spec files are written for it ("": $TMPDIR or /tmp)
  const std::atomic<bool>* stop = nullptr;  // set: the command in flight is killed (Faulted/Error "stopped")
  // Per stream; more kills the command's group (Faulted/BadOutput). Reading and parsing an impl
  // takes several times its size in memory per job (issue 43: 300 MB a job at the old 64 MiB).
  std::size_t max_output_bytes = std::size_t{16} << 20;
};

// Callable from several threads at once: every call writes its own spec file.
AllocateFn command_allocator(CommandOptions options);

// The shell line that feeds `spec_path` to the command by hand, as the campaign does.
std::string command_invocation(const std::string& command, const std::string& spec_path);

// Quotes a string for /bin/sh ('...' with embedded quotes escaped).
std::string shell_quote(const std::string& s);

}  // namespace syncbisim::fuzz
