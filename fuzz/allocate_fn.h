#pragma once
// The allocation under test, as a value: fuzz campaigns and the shrinker take it as a parameter,
// so the allocator can be one of the tool's strategies, a user's command (fuzz/
// command_allocator.h), a C++ or Python callback (the public API), or a test's planted bug.
// Every way an allocator can answer is a value here: an impl, a refusal, or a fault; none of
// them may crash or hang the caller.
#include <cstdint>
#include <functional>
#include <string>
#include <variant>

#include "allocator/allocate.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::fuzz {

// The allocator gave an impl (parsed and indexed; its correspondence to the spec is the
// checker's to judge: a different tree is AllocatorFault::TreeMismatch).
struct Allocated {
  model::Program impl;
};

// The allocator said it does not handle this spec (a command's non-zero exit, a callback's
// exception): counted apart, not a failure unless the campaign says so.
struct Declined {
  std::string reason;  // the first line of its stderr, or the exception's message
};

// How an allocator can fail before anything is checked (docs/fuzzing.md, failure classes).
enum class AllocatorFault : std::uint8_t {
  Crash,         // ended by a signal
  Timeout,       // did not answer in time; its process group was killed
  BadOutput,     // its output is not an impl program (the reader's diagnostic says why)
  TreeMismatch,  // an impl whose tree or instructions do not correspond to the spec
  Declined,      // a refusal, counted as a failure (fuzz --declined-is-failure)
  Error,         // anything else: the tool's own allocator failed, a callback threw, spawn failed
};
const char* to_string(AllocatorFault f);  // "crash", "timeout", "bad-output", ...

struct Faulted {
  AllocatorFault fault = AllocatorFault::Error;
  std::string detail;  // the signal, the deadline, the parse error, ...
};

using AllocatorAnswer = std::variant<Allocated, Declined, Faulted>;

struct AllocatorReply {
  AllocatorAnswer answer;
  // What the allocator wrote, kept for the files of a failure (empty for in-process strategies).
  std::string output, errors;
  double seconds = 0;    // the allocator's own time
  bool stopped = false;  // stopped from outside (CampaignOptions::stop): no answer, the run is not finished
};

// spec (normalized) and its index -> the allocator's reply. Must be callable from several
// threads at once (fuzz --jobs).
using AllocateFn = std::function<AllocatorReply(const model::Program&, const model::ProgramIndex&)>;

// The impl of a reply, if the allocator gave one.
inline const model::Program* impl_of(const AllocatorReply& r) {
  const auto* a = std::get_if<Allocated>(&r.answer);
  return a ? &a->impl : nullptr;
}

// allocator::allocate with `strategy`, registers not pruned. An allocator error is a fault
// (AllocatorFault::Error): the tool's strategies never decline.
AllocateFn allocate_with(allocator::Strategy strategy);

// The reply for what an external allocator printed: an impl in JSON or the text format
// (formats/load.h decides which), else BadOutput with the reader's one-line diagnostic.
AllocatorReply reply_from_output(std::string output, std::string errors, double seconds);

// The first non-empty line of a stream, cut to a readable length (a refusal's reason).
std::string first_line(const std::string& text);

}  // namespace syncbisim::fuzz
