#pragma once
// Internal to the explorer: the breadth-first search over the visited set (docs/checker.md
// "Search" and "State storage").
#include <cstdint>
#include <optional>
#include <vector>

#include "checker/detail/classifier.h"
#include "checker/detail/parent_log.h"
#include "checker/detail/reducer.h"
#include "checker/detail/row_store.h"
#include "checker/detail/stopwatch.h"
#include "checker/detail/successor.h"
#include "checker/explorer.h"
#include "checker/part_table.h"
#include "checker/state_codec.h"
#include "checker/tree_states.h"

namespace syncbisim::checker::detail {

class Exhaustive {
 public:
  Exhaustive(const semantics::Lockstep& both, const CheckOptions& o);

  // Stop as soon as this violation is found, exploring at most `max_depth` steps deep.
  void target(ViolationKey key, std::uint64_t max_depth) {
    target_ = key;
    max_depth_ = max_depth;
  }

  CheckResult run();

 private:
  static constexpr std::uint32_t kNoParent = ParentLog::kNone;
  static constexpr std::size_t kMemoBytesPerState = 4;
  static constexpr std::uint64_t kLimitStride = 1024;  // successors of one state between time checks

  // Builds and enqueues every successor of state `id` by `steps`, counting them in r.transitions;
  // false if a limit (named in r.limit) cut the fan-out short.
  bool expand_all(const semantics::Steps& steps, std::uint32_t id, Clock::time_point t0, CheckResult& r);
  // Puts `tuple`, a successor of `parent`, in pending_ (its slot prefetched) until flush().
  void enqueue(const std::vector<std::uint32_t>& tuple, std::uint32_t parent);
  // Adds the pending states to the set; the new ones get ids and parents.
  void flush();
  // The steps that lead to state `id`. Only parents are stored (about 2 bits a state): the step
  // from a parent to its child is found again by expanding the parent as the search did.
  std::vector<semantics::Step> trace_to(std::uint32_t id) const;
  std::uint64_t bytes() const;

  const semantics::Lockstep& both_;
  const CheckOptions& opt_;
  std::optional<ViolationKey> target_;
  std::uint64_t max_depth_ = 0;
  StateCodec codec_;
  Reducer reducer_;
  Classifier classifier_;
  PartTable parts_;  // engine and global parts (all parts share one table)
  // The tuple of state `id` (valid until the next call).
  const std::uint32_t* tuple(std::uint32_t id) const;

  bool compress_;                                // StateStore::Tree: tree_ holds the states, else flat_
  TreeStates tree_;                              // tuples of part ids as trees of pairs
  StateSet flat_;                                // or flat
  ParentLog parents_;                            // by state id
  mutable std::vector<std::uint32_t> unfolded_;  // tuple()'s
  SuccessorBuilder successors_;
  struct Pending {
    std::uint64_t hash;
    std::uint64_t root;  // compress_: the tuple's root pair (the tuple itself is not kept)
    std::uint32_t parent;
  };
  static constexpr std::size_t kMaxPending = 16;
  std::vector<Pending> pending_;               // successors not yet in states_, in order
  std::vector<std::uint32_t> pending_tuples_;  // !compress_: their tuples, back to back
};

}  // namespace syncbisim::checker::detail
