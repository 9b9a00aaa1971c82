#pragma once
// Internal to the explorer: the breadth-first search over the visited set (docs/checker.md
// "Search" and "State storage").
#include <cstdint>
#include <optional>
#include <vector>

#include "checker/detail/classifier.h"
#include "checker/detail/reducer.h"
#include "checker/detail/row_store.h"
#include "checker/detail/step_memo.h"
#include "checker/explorer.h"
#include "checker/part_table.h"
#include "checker/state_codec.h"

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
  static constexpr std::uint32_t kNoParent = UINT32_MAX;
  static constexpr std::uint32_t kNoPart = UINT32_MAX;  // no part read yet
  static constexpr std::size_t kMemoBytesPerState = 4;

  // A step changes few parts (its engine's, the global one): an engine part the step did not
  // touch keeps the parent's id without being encoded, and a global part equal to the parent's
  // keeps its id without being hashed. The initial state (no parent) touches everything.
  // Returns the parts of `s` that may differ from the parent's: `touched`, and the global part
  // if its words changed.
  // The state itself waits in pending_ (its slot prefetched) until flush().
  std::uint64_t insert(const semantics::LockstepState& s, std::uint32_t parent, std::uint64_t touched) {
    const std::uint64_t changed = encode_tuple(s, parent, touched);
    enqueue(parent);
    return changed;
  }
  // insert() without the enqueue(): the tuple of `s` in tuple_.
  std::uint64_t encode_tuple(const semantics::LockstepState& s, std::uint32_t parent, std::uint64_t touched);
  // Puts the tuple in tuple_, a successor of `parent`, in pending_.
  void enqueue(std::uint32_t parent);
  // The successor of the state being expanded by `st`, into pending_: from the step memo if it
  // knows every piece of the step, else built in work_ (brought back first as `dirty` says;
  // updated).
  void expand(const semantics::Step& st, std::uint32_t parent, std::uint64_t& dirty);
  // The successor's tuple into tuple_ (which holds the parent's) from the memo alone, if it
  // knows every piece.
  bool follow_memo(const semantics::Step& st);
  // Might engine f move in the round of settling after a choice? Only if it waits at a loop
  // head in the state being expanded: that state is settled, and the pieces of other engines
  // change neither f's part nor anything else f's settling reads unless f is at a loop head
  // (a register operation, a barrier arrival or a back edge would have been taken already).
  bool may_wait(semantics::EngineId f) const { return StateCodec::is_touched(waiting_, f); }
  // The successor built in work_ (the parent, decoded) piece by piece into tuple_ (the
  // parent's); returns the parts where work_ now differs from the parent.
  std::uint64_t build(const semantics::Step& st, std::uint32_t parent);
  // Adds the pending states to the set; the new ones get ids and parents.
  void flush();
  // Reads the words of state `id`'s parts into parent_words_ (and their ids), for bring() and
  // insert(). Consecutive states share most parts (siblings differ in one engine or two): a part
  // with the same id as the state read before is not read again. Returns the parts that changed.
  std::uint64_t read(std::uint64_t id);
  // Decodes the parts in `dirty` from parent_words_ into work_, which then is the state read
  // last in every encoded field; clears `dirty`. (Decoding a part costs about what copying it
  // from a second decoded state would, and this way nothing is decoded twice.)
  void bring(std::uint64_t& dirty);
  // The steps that lead to state `id`. Only parents are stored (4 bytes a state): the step from a
  // parent to its child is found again by expanding the parent as the search did.
  std::vector<semantics::Step> trace_to(std::uint32_t id) const;
  semantics::LockstepState decode_copy(std::uint32_t id, std::vector<PartWords>& words) const;
  std::uint64_t bytes() const;

  const semantics::Lockstep& both_;
  const CheckOptions& opt_;
  std::optional<ViolationKey> target_;
  std::uint64_t max_depth_ = 0;
  StateCodec codec_;
  Reducer reducer_;
  Classifier classifier_;
  StepMemo memo_;
  PartTable parts_;                     // engine and global parts (all parts share one table)
  StateSet states_;                     // tuples of part ids
  RowStore<std::uint32_t> parents_{1};  // by state id
  PartWords words_;
  std::vector<std::uint32_t> tuple_;
  std::vector<PartWords> parent_words_;      // the state being expanded, part by part
  std::vector<std::uint32_t> parent_tuple_;  // its part ids
  semantics::LockstepState work_;            // the state being expanded, and each successor in turn
  std::uint64_t waiting_ = 0;                // its engines at a loop head (bits as in StateCodec::part_bit)
  struct Pending {
    std::uint64_t hash;
    std::uint32_t parent;
  };
  static constexpr std::size_t kMaxPending = 16;
  std::vector<Pending> pending_;               // successors not yet in states_, in order
  std::vector<std::uint32_t> pending_tuples_;  // their tuples, back to back
};

}  // namespace syncbisim::checker::detail
