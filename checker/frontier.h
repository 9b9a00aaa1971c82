#pragma once
// The search's two parts to choose (docs/checker.md "Search"): the visited set, flat or tree
// (CheckOptions::state_store, statespace/state_store.h), and the frontier, which holds the
// states still to expand and decides who expands them: one thread, several threads, or the
// ranks of an MPI job (distributed/check.h supplies that one, the checker knows no MPI). Every
// frontier gives the same states, transitions, violations, traces and --max-states cut as one
// thread; checker::check(pair, options, frontier) is the one entry point that runs any of them
// and does what follows every search (shorter traces after a reduced search, a trip cap's cut,
// the verdict).
#include "checker/check_result.h"
#include "checker/explorer.h"
#include "semantics/lockstep.h"

namespace syncbisim::checker {

class Frontier {
 public:
  virtual ~Frontier() = default;
  // The exhaustive breadth-first search of `both` from its initial state: counts, limits, and the
  // violations with their traces (complete where reports() holds).
  virtual CheckResult explore(const semantics::Lockstep& both, const CheckOptions& options) = 0;
  // Whether this process holds the whole result and shortens its traces: false on every MPI
  // rank but rank 0.
  virtual bool reports() const { return true; }
  // Whether a failure outside the search (an allocation, the internal-step limit met setting up
  // or shortening) may end here in an inconclusive verdict. Not on MPI ranks, where the others
  // would wait for this one in a collective: there it ends the job (docs/distributed.md "Limits").
  virtual bool alone() const { return true; }
};

// One thread (checker/detail/exhaustive.h): the search every other frontier reproduces.
class OneThread final : public Frontier {
 public:
  CheckResult explore(const semantics::Lockstep& both, const CheckOptions& options) override;
};

// `threads` threads sharing each level (checker/detail/threaded_search.h).
class Threads final : public Frontier {
 public:
  explicit Threads(unsigned threads) : threads_(threads) {}
  CheckResult explore(const semantics::Lockstep& both, const CheckOptions& options) override;

 private:
  unsigned threads_;
};

// The search of `both` over `frontier`, then the shortening of its traces after a reduced search.
// Failures outside the search end in an inconclusive verdict that names them, where the frontier
// is alone(). Random walks (options.walks) are not a frontier's: check(both, options) runs them.
CheckResult check(const semantics::Lockstep& both, const CheckOptions& options, Frontier& frontier);
// The same for a pair, with its trip cap's cut (check(const ProgramPair&, const CheckOptions&)).
CheckResult check(const ProgramPair& pair, const CheckOptions& options, Frontier& frontier);

}  // namespace syncbisim::checker
