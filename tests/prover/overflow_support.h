#pragma once
// The overflow questions' tests (overflow_test.cpp, overflow_sum_test.cpp): their inputs, the
// question of a result by kind and name, and a refutation's trace replayed through the semantics.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "prover/prove_support.h"

namespace syncbisim::test {

// A program of tests/inputs/prover/overflow.
inline formats::LoadedProgram overflow_input(const std::string& name, model::ProgramKind kind) {
  return load_input("overflow/" + name, kind);
}

// The answer to the overflow question of `kind` ("register", "semaphore") about `name`; FAIL if
// the prover asked none.
inline const prover::OverflowResult& question(const prover::ProveResult& r, const std::string& kind,
                                              const std::string& name) {
  for (const auto& o : r.overflows)
    if (o.kind == kind && o.name == name) return o;
  FAIL("no overflow question for ", kind, " ", name);
  return r.overflows.front();
}

// The trace replays through the semantics to a state where the value is past max (the semantics'
// own numbers), and that state is the first one: no step before the last had an overflow there.
// A semaphore's value there is the one the finding names.
inline void check_trace(const prover::ProveResult& r, const prover::OverflowResult& o) {
  REQUIRE(o.traced);
  REQUIRE_FALSE(o.trace.empty());
  const auto& both = r.pair->lockstep();
  auto s = both.initial();
  const auto& ip = r.pair->impl_code();
  auto value = [&] {
    if (o.kind == "semaphore")
      return s.impl.sems[std::find(ip.semaphores.begin(), ip.semaphores.end(), o.name) - ip.semaphores.begin()];
    const auto id = std::find(ip.registers.begin(), ip.registers.end(), o.name) - ip.registers.begin();
    const auto e = std::find(ip.engines.begin(), ip.engines.end(), o.engine) - ip.engines.begin();
    return s.impl.regs[e][id];
  };
  for (std::size_t k = 0; k < o.trace.size(); ++k) {
    CHECK_FALSE(both.impl().overflowed(s.impl));
    both.apply(s, o.trace[k]);
  }
  CHECK(both.impl().overflowed(s.impl));
  CHECK(value() > o.max);
  if (o.kind == "semaphore") CHECK(std::to_string(value()) == o.value);
}

}  // namespace syncbisim::test
