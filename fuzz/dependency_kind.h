#pragma once
// What a dependency is, structurally: the loop it is carried at (S), its allocatable case (paper
// §5.2: the producer's place relative to S and its direction), and its offsets. By default the
// shrinker keeps these for every dependency it keeps (docs/fuzzing.md "The shrinker"): a minimized
// case that shows the same failure through a dependency of another kind (an offset 2 lowered to 0,
// say) shows the failure but no longer its cause. For the failing instruction's own dependencies it
// also keeps N and K (paper §5.5: the producer's engine has N instructions directly in P, the
// producer is the K-th): a wait value N·expr − (N − K) that is off only when N >= 2 explains
// itself only while N is what it was (issue 40).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/dependency_analysis.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::fuzz {

struct DependencyKind {
  std::string producer, consumer;
  std::string carried_at;  // S, the innermost common loop ("@top" at the top level)
  analysis::DepClass cls = analysis::DepClass::NotAllocatable;
  bool forward = true;
  bool exclusive_branches = false;
  std::map<std::string, std::uint32_t> offsets;           // the non-zero distance entries, by loop
  std::uint32_t n = 0, k = 0;                             // N_P(producer's engine) and the producer's K
  bool same_kind_as(const DependencyKind& before) const;  // offsets no smaller than before's
  bool same_counts(const DependencyKind& before) const { return n == before.n && k == before.k; }
  // "I3 -> I2: carried at B, offset B=2, producer-in-S, N=2 K=1"
  std::string to_string() const;
};

// Which of N, K, the offsets and the carrying loop the failing instruction's dependencies kept
// from `before` to `after` (matched by producer and consumer): "N=2, K=1, offset B=2, carried at
// B", or what changed ("N 3 -> 1"). "" when there is nothing to compare.
std::string kept_quantities(const std::vector<DependencyKind>& before, const std::vector<DependencyKind>& after);

std::vector<DependencyKind> dependency_kinds(const model::Program& spec, const model::ProgramIndex& ix);

// Whether every dependency of `after` that is also in `before` (the same producer and consumer)
// is of the same kind there, and every dependency of `before` whose consumer is `keep_consumer`
// is still there: dropping the failing instruction's own dependencies would change the question
// too (an over-synchronized wait with no dependency left is over-synchronized whatever it waits
// for), nor has it changed its N or K. Other dependencies `after` dropped do not matter.
bool keeps_kinds(const std::vector<DependencyKind>& before, const std::vector<DependencyKind>& after,
                 const std::string& keep_consumer = "");

}  // namespace syncbisim::fuzz
