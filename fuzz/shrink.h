#pragma once
// The shrinker (GitHub issue 6, docs/fuzzing.md): hierarchical delta debugging over the program
// tree that keeps the same failure (kind, instruction, engine). RapidCheck's own shrinking accepts
// any failure and can drift to another bug, so it is not used here.
//
// Two modes (ShrinkMode): the impl re-derived from every candidate spec by an allocator (the
// usual case after fuzzing, where the failure may also be the allocator's own fault), or an impl
// given and edited together with the spec.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "fuzz/allocate_fn.h"
#include "fuzz/allocated_case.h"
#include "fuzz/case_check.h"
#include "fuzz/dependency_kind.h"
#include "fuzz/failure.h"
#include "fuzz/program_edits.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::fuzz {

struct ShrinkProgress {
  std::uint64_t steps = 0;     // candidates checked (cache hits not counted)
  std::uint64_t accepted = 0;  // candidates that kept the failure
  ProgramSize size;            // of the current spec
  std::string pass;            // the pass running
  double seconds = 0;
};

struct ShrinkOptions {
  std::uint64_t max_steps = 5000;           // 0: no limit
  double max_seconds = 60;                  // 0: no limit; hitting it makes the result depend on speed
  CaseOptions check;                        // the checker's limits and which violations count
  const std::atomic<bool>* stop = nullptr;  // set from outside: stop now with what was kept ("interrupted")
  bool keep_spec = false;                   // a given pair: only the impl shrinks (the spec is the question asked)
  bool free = false;                        // allow a kept dependency to change its kind (fuzz/dependency_kind.h)
  std::function<void(const ShrinkProgress&)> progress;  // after every accepted candidate
};

struct ShrinkResult {
  model::Program spec, impl;            // minimized (impl: derived or edited; empty if the allocator gave none)
  Failure failure;                      // the failure kept
  std::string what;                     // its message on the minimized case (a fault's detail, or the violation)
  AllocatorReply reply;                 // derive mode: what the allocator answered for the minimized spec
  ProgramSize before, after;            // of the spec
  ProgramSize impl_before, impl_after;  // of the impl (given or derived)
  // The dependencies of the failing instruction (every dependency for an allocator's fault),
  // before and after: the same kinds unless ShrinkOptions::free.
  std::vector<DependencyKind> kinds_before, kinds_after;
  std::uint64_t steps = 0, accepted = 0, cache_hits = 0;
  std::uint64_t kind_changes = 0;  // candidates refused because a dependency would change its kind
  double seconds = 0;
  std::string stopped;  // "" at a fixpoint, else the budget that ran out ("max-steps 5000")
};

// The impl is given: every edit is applied to both programs by name, and a candidate impl that
// no longer loads or corresponds is skipped.
struct GivenImpl {
  model::Program impl;
};
// The impl is derived: every candidate spec is allocated afresh (a user's command, a callback,
// one of the tool's strategies) and judged as a campaign judges a run (fuzz/allocated_case.h).
struct DerivedImpl {
  AllocateFn allocate;
  bool declined_is_failure = false;
};
using ShrinkMode = std::variant<GivenImpl, DerivedImpl>;

// `target` absent: the first counted failure of the input. Fails if the input is invalid or does
// not show the failure.
model::Result<ShrinkResult> shrink(const model::Program& spec, const ShrinkMode& mode,
                                   const std::optional<Failure>& target, const ShrinkOptions& options);

}  // namespace syncbisim::fuzz
