#pragma once
// What makes a fuzzed case a failure, and how to tell two failures apart (GitHub issue 6). The
// shrinker keeps "the same failure": the same kind of violation on the same instruction (and
// engine), so a minimized case shows the bug that was found, not another one met on the way.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/check_result.h"
#include "semantics/lockstep.h"

namespace syncbisim::fuzz {

// Which violations count as failures.
enum class Counts : std::uint8_t {
  UnderSyncOnly,     // the barrier baseline, and any strategy on a non-allocatable spec
  AllOnAllocatable,  // a barrier-free strategy: over-sync and impl deadlocks too, on allocatable specs
  All,               // a given pair: any violation (spec deadlocks aside)
};

struct Failure {
  checker::ViolationKind kind = checker::ViolationKind::UnderSync;
  std::string engine;
  std::string instr;  // "" for a deadlock with no instruction in front of the engine
  bool operator==(const Failure&) const = default;
  // "under-sync at I3 on E1"
  std::string to_string() const;
};

// The failure a violation is, named in the spec's words.
Failure failure_of(const semantics::Lockstep& both, const checker::Violation& v);

// Whether a violation counts under the policy; `allocatable` says whether every dependency of
// the spec is allocatable (analysis::DependencyInfo::allocatable).
bool counts(const checker::Violation& v, Counts policy, bool allocatable);

// The failure to report: the first counted under-sync, else the first other counted violation.
std::optional<Failure> first_failure(const semantics::Lockstep& both, const checker::CheckResult& r, Counts policy,
                                     bool allocatable);

// Whether `r` shows `target` as a counted violation.
bool shows(const semantics::Lockstep& both, const checker::CheckResult& r, const Failure& target, Counts policy,
           bool allocatable);

}  // namespace syncbisim::fuzz
