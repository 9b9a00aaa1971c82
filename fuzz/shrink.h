#pragma once
// The shrinker (GitHub issue 6, docs/fuzzing.md): hierarchical delta debugging over the program
// tree that keeps the same failure (kind, instruction, engine). RapidCheck's own shrinking accepts
// any failure and can drift to another bug, so it is not used here.
//
// Two modes: with an allocation function the impl is re-derived from every candidate spec (the
// usual case after fuzzing); with an impl, every candidate edits both programs by name, and a
// candidate impl that no longer loads or corresponds is skipped.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "fuzz/allocate_fn.h"
#include "fuzz/case_check.h"
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
  std::uint64_t max_steps = 5000;                       // 0: no limit
  double max_seconds = 60;                              // 0: no limit; hitting it makes the result depend on speed
  CaseOptions check;                                    // the checker's limits and which violations count
  std::function<void(const ShrinkProgress&)> progress;  // after every accepted candidate
};

struct ShrinkResult {
  model::Program spec, impl;  // minimized (impl: derived or edited)
  Failure failure;            // the failure kept
  ProgramSize before, after;
  std::uint64_t steps = 0, accepted = 0, cache_hits = 0;
  double seconds = 0;
  std::string stopped;  // "" at a fixpoint, else the budget that ran out ("max-steps 5000")
};

// `target` absent: the first counted failure of the input. Fails if the input is invalid or does
// not show the failure. Exactly one of `impl` and `derive` is given.
model::Result<ShrinkResult> shrink(const model::Program& spec, const std::optional<model::Program>& impl,
                                   const AllocateFn* derive, const std::optional<Failure>& target,
                                   const ShrinkOptions& options);

}  // namespace syncbisim::fuzz
