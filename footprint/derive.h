#pragma once
// The dependency graph derived from footprints for every trip count (docs/footprints.md
// "Deriving the graph"): every flow, anti and output dependence between instruction instances,
// and accumulate against read or write, on ISL (detail/presburger.h). For each pair of
// conflicting instructions and each loop that carries a conflict (or the same iteration), one
// dependency that orders all of them under the semantics' cumulative waits (paper eq. (1)): the
// least numeric distance that covers them, else the whole-iterations form `L=*`. Then the graph
// is reduced where one dependency implies another for every trip count.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "footprint/kernel.h"
#include "model/program.h"

namespace syncbisim::footprint {

// Why a dependency is there: one conflicting pair of instances and the element they share.
struct Justification {
  Hazard hazard = Hazard::RAW;
  std::string producer_access, consumer_access;  // "writes t[i mod 2, :, :]"
  std::string producer_at, consumer_at;          // "(i=0)", "(i=2)"
  std::string element;                           // "t[0, 0, 0]"
  std::string to_string(const std::string& producer, const std::string& consumer) const;
};

struct DerivedDependency {
  model::Dependency dep;  // producer, consumer, distance (non-zero entries), every
  // The common loop that carries the conflicts (its name), or "" for the same iteration.
  std::string carried_by;
  std::vector<Justification> why;  // the first is the witness; one per access pair
  // The distances of the conflicts are one vector; when not, their range ("from (1, 0) to (3, 0)").
  bool uniform = true;
  std::string distances;
  // "" when every producer instance a consumer instance waits for is needed by a conflict (at or
  // after it in program order); else where the cumulative wait owes more, with a witness.
  std::string over_synchronizes;
  // The reduction: implied by another dependency for every trip count (then not in the graph).
  std::string implied_by;
};

struct Derivation {
  std::vector<DerivedDependency> deps;  // kept and implied, in a stable order
  std::vector<std::string> undecided;   // questions ISL could not answer (the graph is then incomplete)
  std::size_t kept() const;
  // The kept dependencies, as a spec's graph.
  std::vector<model::Dependency> graph() const;
};

struct DeriveOptions {
  bool reduce = true;
  unsigned long isl_max_operations = 20000000;
  // Pairs of instructions whose instances at the largest trips make at most this many pairs are
  // enumerated instead of handed to ISL (both exact, docs/footprints.md "Two analyses");
  // force_isl sends every pair to ISL (the differential test).
  std::uint64_t max_enumerated_pairs = 4096;
  bool force_isl = false;
  // The reduction by executions (docs/footprints.md "Reduction"): where the kernel has at most
  // this many executions of at most max_instances instances each, and the work (kept
  // dependencies times instances and conflicts over all executions) stays under the bound.
  std::size_t max_executions = 256;
  std::size_t max_instances = 20000;
  std::uint64_t max_reduction_work = 200000000;
};

Derivation derive(const Kernel& k, const DeriveOptions& options = {});

// Does `by` order everything `d` orders, for every trip count? (docs/footprints.md "Reduction"):
// the same pair with no larger distance in any loop and the same starred loops; or the same
// distance and starred loops with `by`'s producer after d's on its engine in the same loop body
// (in-order retirement), or `by`'s consumer before d's on its engine in the same loop body
// (in-order issue). The instances these rules pass through exist whenever the two ends do.
bool implies(const Kernel& k, const model::Dependency& by, const model::Dependency& d);
// Also by in-order issue, across one iteration: `by` (X -> Y2) with Y2 after d's consumer Y on
// its engine in their innermost common loop L orders X -> Y with by's distance plus one at L.
bool implies_across_iteration(const Kernel& k, const model::Dependency& by, const model::Dependency& d);

// Does the chain `first` (A -> B) then `second` (B -> C) order everything `d` (A -> C) orders, for
// every trip count? Two rules (docs/footprints.md "Reduction"): `first` has distance 0, B's loops
// are a prefix of A's and B follows A; then B -> C with distance d2 orders A -> C with d2 and `*`
// on A and C's common loops below B and C's. Or `second` has distance 0, B's loops are a prefix of
// C's, B precedes C, and A's common loops with B and with C are the same; then A -> C is ordered
// with first's distance. Whatever those order, a dependency that owes less is ordered too.
bool implies_by_chain(const Kernel& k, const model::Dependency& first, const model::Dependency& second,
                      const model::Dependency& d);
// The dependency A -> C the chain orders by those rules, if one does.
std::optional<model::Dependency> compose(const Kernel& k, const model::Dependency& first,
                                         const model::Dependency& second);
// The graph with every dependency chains of its own order (compose(), repeated), up to
// `max_added` more: what a written graph orders for every trip count, as single dependencies.
std::vector<model::Dependency> chain_closure(const Kernel& k, const std::vector<model::Dependency>& graph,
                                             std::size_t max_added = 20000);

// Is `d` implied by some dependency of `graph`, or by a chain of two (the indices in `skip` left
// out)? Looks only at dependencies whose ends touch d's (indexed once for many questions).
class ImplicationIndex {
 public:
  ImplicationIndex(const Kernel& k, const std::vector<model::Dependency>& graph);
  // The text of what implies d ("" when nothing does), ignoring graph[skip].
  std::string implied_by(const model::Dependency& d, std::size_t skip = SIZE_MAX,
                         const std::vector<bool>* removed = nullptr) const;

 private:
  const Kernel& k_;
  const std::vector<model::Dependency>& graph_;
  std::map<std::string, std::vector<std::size_t>> by_producer_, by_consumer_;
};

// "dep load -> mm distance i=1, k=*" without the "dep".
std::string dependency_text(const model::Dependency& d);

}  // namespace syncbisim::footprint
