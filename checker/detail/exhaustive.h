#pragma once
// Internal to the explorer: the breadth-first search over the visited set (docs/checker.md
// "Search" and "State storage").
#include <cstdint>
#include <optional>
#include <vector>

#include "checker/classifier.h"
#include "checker/explorer.h"
#include "statespace/expander.h"
#include "statespace/parent_log.h"
#include "statespace/part_table.h"
#include "statespace/row_cache.h"
#include "statespace/state_codec.h"
#include "statespace/stopwatch.h"
#include "statespace/visited_set.h"

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
  static constexpr std::uint32_t kNoParent = statespace::ParentLog::kNone;

  // Expands state `id` (statespace::Expander), enqueues its successors and counts them in
  // r.transitions; false if a limit (named in r.limit) cut the fan-out short. With a target,
  // `hit` says whether the state shows it and `deep` whether it lies as deep as the search may
  // go: either way no successor is built.
  bool expand(std::uint32_t id, std::uint64_t depth, statespace::Clock::time_point t0, CheckResult& r, bool& hit,
              bool& deep);
  // Puts `tuple`, a successor of `parent`, in pending_ (its slot prefetched); it is added to the
  // set kWindow successors later, or at the next flush().
  void enqueue(const std::vector<std::uint32_t>& tuple, std::uint32_t parent);
  // Adds pending state k to the set; if it is new it gets the next id and its parent.
  void add(std::size_t k);
  // Adds every pending state, in order.
  void flush();
  std::size_t waiting() const { return pending_.size() - added_; }
  // The steps that lead to state `id`. Only parents are stored (about 2 bits a state): the step
  // from a parent to its child is found again by expanding the parent as the search did.
  std::vector<semantics::Step> trace_to(std::uint32_t id) const;
  std::uint64_t bytes() const;

  const semantics::Lockstep& both_;
  const CheckOptions& opt_;
  std::optional<ViolationKey> target_;
  std::uint64_t max_depth_ = 0;
  statespace::StateCodec codec_;
  Classifier classifier_;
  statespace::PartTable parts_;  // engine and global parts (all parts share one table)
  statespace::VisitedSet visited_;  // flat or tree (CheckOptions::state_store)
  statespace::ParentLog parents_;   // by state id
  statespace::Expander expander_;
  struct Pending {
    std::uint64_t hash;
    std::uint32_t parent;
  };
  // A successor is added to the set once kWindow more have been built, so every one's slot has
  // had as long to arrive (adding all of a batch at once left the last few no time at all).
  static constexpr std::size_t kWindow = 8;
  static constexpr std::size_t kMaxPending = 64;  // pending_ is emptied when it holds this many
  std::vector<Pending> pending_;  // successors built, in order; those from added_ on are not yet in the set
  std::vector<std::uint32_t> pending_keys_;  // their keys in the set, back to back (VisitedSet::key_of)
  std::size_t added_ = 0;
  // The states met last (their keys, with their ids): a successor found here is
  // known, and costs no look in the set (about half of them on the stress run: a state is mostly
  // met again by a sibling of its first parent, a few successors later).
  statespace::RowCache met_;
};

}  // namespace syncbisim::checker::detail
