#pragma once
// A spec handed to an allocator and the answer judged: the step a campaign takes for every run
// and the shrinker for every candidate spec when the impl is derived (docs/fuzzing.md). A
// refusal, a fault, an impl that does not load or does not correspond, and a counted violation
// of the checked pair are all outcomes here, never an exception.
#include <optional>

#include "fuzz/allocate_fn.h"
#include "fuzz/case_check.h"
#include "fuzz/failure.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::fuzz {

struct AllocatedCase {
  AllocatorReply reply;
  std::optional<CaseResult> check;  // when the allocator gave an impl that loads and corresponds
  std::optional<Failure> failure;   // the failure this case counts as
  std::string what;                 // the failure's message: the fault's detail or the violation
  bool declined = false;            // a refusal that does not count as a failure
  bool target_shown = false;        // the target passed in is this case's failure, or among its violations
  bool inconclusive() const { return !failure && !declined && check && check->inconclusive(); }
};

struct JudgeOptions {
  CaseOptions check;
  bool declined_is_failure = false;  // a refusal is AllocatorFault::Declined
};

AllocatedCase allocate_and_check(const AllocateFn& allocate, const model::Program& spec, const model::ProgramIndex& ix,
                                 const JudgeOptions& options, const Failure* target = nullptr);

}  // namespace syncbisim::fuzz
