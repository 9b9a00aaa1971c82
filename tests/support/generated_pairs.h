#pragma once
// Generated (spec, impl) pairs for property tests: a generated spec, an allocation of it by a drawn
// strategy and, now and then, one of its mutants (a wait, a signal or a barrier dropped, a
// threshold changed...). The checker's, the prover's and the allocator's properties all draw
// their pairs here, so a change to how pairs are drawn is made once.
#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <utility>

#include "allocator/allocate.h"
#include "formats/load.h"
#include "generators/mutations.h"
#include "generators/spec_gen.h"
#include "model/index.h"

namespace syncbisim::test {

// A spec of the generator and its index (valid by construction: RC_ASSERT).
inline formats::LoadedProgram gen_indexed_spec(const generators::SpecGenOptions& o) {
  auto spec = *generators::gen_spec(o);
  auto ix = model::ProgramIndex::build(spec);
  RC_ASSERT(ix.ok());
  return {std::move(spec), std::move(*ix)};
}

inline allocator::Strategy gen_strategy() { return *rc::gen::elementOf(allocator::all_strategies()); }

struct GeneratedPair {
  allocator::Strategy strategy = allocator::Strategy::Auto;
  model::Program impl;
  bool mutated = false;
};

// `spec` allocated by `strategy` or a drawn one (a spec the strategy refuses is discarded: RC_PRE),
// replaced by one of its mutants with probability `mutant_chance` (in [0, 1], in twelfths).
inline GeneratedPair gen_allocation(const formats::LoadedProgram& spec, double mutant_chance = 0,
                                    std::optional<allocator::Strategy> strategy = std::nullopt) {
  GeneratedPair out;
  out.strategy = strategy ? *strategy : gen_strategy();
  auto alloc = allocator::allocate(spec.program, spec.index, allocator::Options{out.strategy, false});
  RC_PRE(alloc.ok());
  out.impl = std::move(alloc->impl);
  if (mutant_chance <= 0) return out;
  const auto ms = generators::mutants(out.impl);
  const int steps = 12;  // chances of 1/4, 1/3, 1/2, 2/3, 3/4 are all whole steps of twelfths
  out.mutated = !ms.empty() && *rc::gen::inRange(0, steps) < static_cast<int>(mutant_chance * steps + 0.5);
  if (out.mutated) out.impl = ms[*rc::gen::inRange<std::size_t>(0, ms.size())].impl;
  return out;
}

}  // namespace syncbisim::test
