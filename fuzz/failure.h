#pragma once
// What makes a fuzzed case a failure, and how to tell two failures apart (docs/fuzzing.md). The
// shrinker keeps "the same failure": the same kind of violation on the same instruction (and
// engine), or the same allocator fault, so a minimized case shows the bug that was found, not
// another one met on the way.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/check_result.h"
#include "fuzz/allocate_fn.h"
#include "semantics/lockstep.h"

namespace syncbisim::fuzz {

// Which violations count as failures.
enum class Counts : std::uint8_t {
  UnderSyncOnly,     // the barrier baseline, and any strategy on a non-allocatable spec
  AllOnAllocatable,  // a barrier-free strategy: over-sync and impl deadlocks too, on allocatable specs
  All,               // a given pair: any violation (spec deadlocks aside)
};

// A violation the checker found, named in the spec's words.
struct ViolationAt {
  checker::ViolationKind kind = checker::ViolationKind::UnderSync;
  std::string engine;
  std::string instr;  // "" for a deadlock with no instruction in front of the engine
  bool operator==(const ViolationAt&) const = default;
};

// A failure: a violation in the allocated pair, or the allocator failing before any check.
using Failure = std::variant<ViolationAt, AllocatorFault>;

// "under-sync at I3 on E1", "crash"
std::string to_string(const Failure& f);
// The class a person filters by: "under-sync", "over-sync", "deadlock", "crash", "timeout", ...
std::string failure_class(const Failure& f);

// The failure a violation is.
ViolationAt failure_of(const semantics::Lockstep& both, const checker::Violation& v);

// Whether a violation counts under the policy; `allocatable` says whether every dependency of
// the spec is allocatable (analysis::DependencyInfo::allocatable).
bool counts(const checker::Violation& v, Counts policy, bool allocatable);

// The failure to report: the first counted under-sync, else the first other counted violation.
std::optional<ViolationAt> first_failure(const semantics::Lockstep& both, const checker::CheckResult& r, Counts policy,
                                         bool allocatable);

// Whether `r` shows `target` as a counted violation.
bool shows(const semantics::Lockstep& both, const checker::CheckResult& r, const ViolationAt& target, Counts policy,
           bool allocatable);

}  // namespace syncbisim::fuzz
