#pragma once
// The files a campaign writes for each failure (docs/fuzzing.md "Files"), the same from the
// command line, the C++ API and the Python module: enough to look at the failure and to replay
// it without the campaign.
//   f<run>.spec.json       the spec (minimized if it was)
//   f<run>.impl.json       the impl, when the allocator gave one that loads
//   f<run>.trace.json      a violation's traces (checker --trace-out format)
//   f<run>.allocator.out   what the allocator printed on stdout (when it is an external one)
//   f<run>.allocator.err   what it printed on stderr
//   f<run>.failure.json    the failure: class, message, run, seed, the commands below
//   f<run>.repro.sh        first line: the one-line reproduction; then the campaign's replay
#include <string>

#include "fuzz/campaign.h"
#include "model/result.h"

namespace syncbisim::fuzz {

struct FailureFileOptions {
  std::string dir;
  std::string replay;             // the command that replays the run in a campaign ("" if none)
  std::string allocator_command;  // the external allocator's command line ("" for in-process ones)
};

struct WrittenFailure {
  std::string stem;   // DIR/f<run>
  std::string repro;  // the one-line reproduction
};

// The one-line reproduction of a failure whose files are at `stem`: `syncbisim check` for a
// violation, the allocator's command fed the written spec for an allocator's fault.
std::string repro_line(const RunFailure& f, const std::string& stem, const std::string& allocator_command);

// Writes every file atomically (formats::write_file_atomically). `dir` must exist.
model::Result<WrittenFailure> write_failure_files(const RunFailure& f, const FailureFileOptions& options);

}  // namespace syncbisim::fuzz
