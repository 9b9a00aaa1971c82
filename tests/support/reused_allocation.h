#pragma once
// The per-loop allocation of a spec with registers and semaphores reused by liveness, whatever the
// budget (docs/allocator.md "Reusing registers and semaphores"): the reuse tests of the checker and
// of the prover start from it.
#include <doctest/doctest.h>

#include <utility>

#include "allocator/allocate.h"
#include "formats/load.h"

namespace syncbisim::test {

inline allocator::Allocation reused_per_loop(const formats::LoadedProgram& spec) {
  allocator::Options o;
  o.strategy = allocator::Strategy::PerLoop;
  o.reuse = allocator::Reuse::Always;
  auto a = allocator::allocate(spec.program, spec.index, o);
  REQUIRE_MESSAGE(a.ok(), a.error().to_string());
  return std::move(*a);
}

}  // namespace syncbisim::test
