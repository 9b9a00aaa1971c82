#pragma once
// The wait value of paper §5.5, mask * count, and the pieces of §5.2-5.5 every barrier-free
// strategy shares: expr and the mask.
#include <optional>

#include <string>

#include "allocator/registers.h"
#include "allocator/spec_facts.h"
#include "analysis/dependency_analysis.h"

namespace syncbisim::allocator {

// What a consumer compares a semaphore against: `mask * count`, or `count` alone. Kept apart
// so that the registers the formula names are known even where the product folds away (a
// constant-0 mask at @top), which is what the maintained-register rule of paper §5.1 counts.
struct WaitValue {
  std::optional<model::Expr> mask;
  model::Expr count;
  // The folded threshold (expr_build.h).
  model::Expr threshold() const;
};

// paper §5.2: expr = r_P - k for a producer in S, r_P for the nested cases (forward k = 0,
// backward k = 1, exclusive branches: docs/analysis.md). Read on the consumer's engine.
model::Expr wait_expr(const Registers& regs, const analysis::DependencyInfo& d);
// The mask isgt(rh_S, k) of paper §5.5 eq. (3)/(5), or nullopt when rh_S is elided.
std::optional<model::Expr> mask(const Registers& regs, model::LoopId S, std::uint32_t k);
// paper §5.5 eq. (3): mask * count, the mask omitted where rh_S is elided.
WaitValue masked(const Registers& regs, const analysis::DependencyInfo& d, const model::Expr& count);

// What a consumer must see of its producer's retirements: R(p) >= mask * count. The paper's
// classes get expr and its mask (paper §5.2-5.5); every other dependency the closed forms of
// target_count.h.
struct DepCount {
  WaitValue value;
  bool exact = true;
  bool never_binds = false;  // no wait at all
  std::string how;           // "" for the paper's classes
};
DepCount dep_count(const SpecFacts& facts, Registers& regs, const analysis::DependencyInfo& d);

class Draft;
// The count dependency `dep` waits for, or nullopt for one that never binds, which is decided
// here (no wait): the first step of every barrier-free strategy.
std::optional<DepCount> binding_count(const SpecFacts& facts, Draft& draft, std::size_t dep);

}  // namespace syncbisim::allocator
