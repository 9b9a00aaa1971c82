#pragma once
// The one expansion of a state that every search makes (docs/checker.md "Search"): the state
// decoded from its tuple of part ids, its visible steps and mismatches (Lockstep::visible), shown
// to the search's classifier, the step the reductions take alone if it has one (docs/checker.md
// "Reductions"), and the tuples of its successors by the steps taken, built in order. The
// searches differ only in where the successors go: the one-thread search (checker/detail/
// exhaustive.h), the threads' (checker/detail/threaded_search.h) and the MPI ranks'
// (distributed/detail/level_search.h) each hold an expander per thread or rank.
#include <cstdint>
#include <vector>

#include "semantics/lockstep.h"
#include "statespace/detail/reducer.h"
#include "statespace/detail/step_memo.h"
#include "statespace/detail/successor.h"
#include "statespace/part_table.h"
#include "statespace/state_codec.h"

namespace syncbisim::statespace {

class Expander {
 public:
  // `parts` interns the parts of every state built; it must outlive the expander. `reduction`:
  // whether a step the reductions take alone stands for all the steps of its state.
  Expander(const semantics::Lockstep& both, const StateCodec& codec, PartTable& parts, bool reduction);

  // The tuple of a state built from nothing (the initial state): every part encoded.
  const std::vector<std::uint32_t>& encode(const semantics::LockstepState& s) { return builder_.encode(s); }

  // The whole expansion of the state whose tuple is `tuple`: start(tuple, classify), then every
  // successor to `sink` (successors()). False if `sink` cut the fan-out short.
  template <class Classify, class Sink>
  bool expand(const std::uint32_t* tuple, Classify&& classify, Sink&& sink) {
    start(tuple, classify);
    return successors(0, sink) == count();
  }

  // Makes the state whose tuple is `tuple` the one expanded, lists its visible steps and
  // mismatches and calls `classify(state, steps, mismatches)`, which may take the mismatches
  // (Classifier::classify moves them into its violations). If it returns false the search wants
  // no successor of the state (count() is 0); else the steps taken are the reductions' one or all.
  template <class Classify>
  const semantics::LockstepState& start(const std::uint32_t* tuple, Classify&& classify) {
    const semantics::LockstepState& s = builder_.load(tuple);
    steps_.clear();
    mismatches_.clear();
    both_->visible(s, steps_, &mismatches_);
    only_ = nullptr;
    if (!classify(s, steps_, mismatches_)) {
      first_ = count_ = 0;
      return s;
    }
    only_ = reduction_ ? reducer_.eager(s, steps_) : nullptr;
    first_ = only_ ? steps_.index_of(only_) : 0;
    count_ = only_ ? 1 : steps_.size();
    return s;
  }

  // The successors of the state started last: how many, and where the first step taken stands
  // among its visible steps (the k-th successor is by visible step first_index() + k).
  std::uint64_t count() const { return count_; }
  std::uint64_t first_index() const { return first_; }

  // Builds the successors from the `from`-th on, in order, and passes each to
  // `sink(tuple, k)` (k: its place among them), until `sink` returns false; the successors built
  // up to then, counted from the first: count() if `sink` never refused.
  template <class Sink>
  std::uint64_t successors(std::uint64_t from, Sink&& sink) {
    if (from >= count_) return count_;
    if (only_) {  // the one step taken: built, whatever `sink` answers
      sink(builder_.build(*only_), std::uint64_t{0});
      return 1;
    }
    auto it = at(from);
    for (std::uint64_t k = from; k < count_; ++it) {
      const semantics::Step st = *it;
      if (!sink(builder_.build(st), k++)) return k;
    }
    return count_;
  }

  // The state started last made the one expanded again, after the expander or the tuple's
  // storage served something else (the slices of a wide fan-out between two exchanges).
  void resume(const std::uint32_t* tuple) { builder_.load(tuple); }

  detail::StepMemo& memo() { return builder_.memo(); }
  const detail::StepMemo& memo() const { return builder_.memo(); }

 private:
  // The iterator at the k-th of the state's visible steps, found by runs (a range trip's
  // choices are one run of up to 2^32 steps).
  semantics::Steps::const_iterator at(std::uint64_t k) const;

  const semantics::Lockstep* both_;
  bool reduction_;
  detail::Reducer reducer_;
  detail::SuccessorBuilder builder_;
  semantics::Steps steps_;  // a range trip's choices as one run (semantics/steps.h)
  std::vector<semantics::Mismatch> mismatches_;
  const semantics::Step* only_ = nullptr;  // the step taken alone, in steps_
  std::uint64_t first_ = 0, count_ = 0;
};

}  // namespace syncbisim::statespace
