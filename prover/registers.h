#pragma once
// The register writes of one engine, split the way the prover resolves them (docs/prover.md
// "Registers"): an increment `r := r + a` (a a constant) is counted, never substituted, so a
// counter's value is the last assignment before the use plus a times the increments run since;
// every other write is an assignment, whose expression is evaluated where it runs.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "prover/places.h"

namespace syncbisim::prover {

struct Increment {
  std::uint64_t add = 0;
  const RegWrite* write = nullptr;
  std::uint32_t top = 0;  // the top-level statement it is in
};

struct RegisterWrites {
  std::vector<Increment> increments;  // in tree order, so by `top`
  std::vector<const RegWrite*> assignments;
};

// `r := r + a` or `r := a + r` with a constant a.
std::optional<std::uint64_t> increment_of(const RegWrite& w);

// Register name -> its writes on `engine`, in tree order.
std::map<std::string, RegisterWrites> register_writes(const Places& places, model::EngineId engine);

}  // namespace syncbisim::prover
