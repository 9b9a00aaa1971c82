#pragma once
// Internal to the distributed check: the level-synchronous breadth-first search over the ranks
// (docs/distributed.md "Design"). Each rank owns the states whose hash (of their parts' words)
// maps to it. A level is expanded in rounds: each rank expands a chunk of its states, sends every
// successor to its owner (one all-to-all exchange a round), and the owner keeps the new ones.
// To give the counts, the traces and the cut of --max-states of the one-process search
// (checker::check, docs/checker.md "Search"), the ranks also keep its order: a state's place in its level
// is that of its first discovery there, the least (place of the parent, index of the step), so
// each owner keeps the least such key of a new state, and at the level's end the keys are
// ranked over all ranks. States are expanded in that order on each rank. A round builds at most
// a bounded number of successors on each rank: a state with more steps (a range trip's choices,
// billions of them) is expanded in slices over several rounds, and the limits are checked between
// them (docs/distributed.md "Limits").
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "checker/classifier.h"
#include "checker/explorer.h"
#include "distributed/communicator.h"
#include "distributed/state_wire.h"
#include "statespace/expander.h"
#include "statespace/part_table.h"
#include "statespace/row_cache.h"
#include "statespace/state_codec.h"
#include "statespace/visited_set.h"

namespace syncbisim::distributed::detail {

// Where a violation showed first on this rank: its state and that state's place in the order.
struct Candidate {
  checker::ViolationKey key;
  std::uint64_t level = 0, place = 0;
  std::uint64_t sub = 0;  // its rank among the violations recorded at that state
  std::uint32_t state = 0;
};

struct SearchOutcome {
  std::uint64_t states = 0, transitions = 0;  // over all ranks
  std::string limit;                          // max-states, max-seconds, max-memory, if one cut the search
  std::vector<Candidate> candidates;          // this rank's, from the states the search classified
  std::vector<std::string> limits;            // this rank's limits of the spec's own walks
};

class LevelSearch {
 public:
  // `round_states`: the states a rank expands between two exchanges, and a rank builds at most
  // kSuccessorsPerRoundState times as many successors in a round (memory for the messages of a
  // round against the cost of an exchange; the result does not depend on it).
  LevelSearch(const semantics::Lockstep& both, const checker::CheckOptions& o, Communicator& comm,
              std::size_t round_states);

  SearchOutcome run();
  // Collective: the indices of the visible steps (as Lockstep::visible() lists them) from the
  // initial state to state `state` of rank `rank`; complete on rank 0.
  std::vector<std::uint64_t> path_to(int rank, std::uint32_t state);
  std::uint64_t bytes() const;  // this rank's state store, with the level's keys and places

  // The successors a round builds on a rank at most, per state of --round-states: a round is
  // about as large as before for the usual few steps a state, and a wide fan-out is sliced.
  static constexpr std::uint64_t kSuccessorsPerRoundState = 8;

 private:
  static constexpr std::uint32_t kNoParent = UINT32_MAX;
  // A step index from kBigStep up is kept in big_steps_, by the state's id: 8 bytes a state for
  // the common few steps, any index a state's fan-out has (a range trip's choices: billions).
  static constexpr std::uint16_t kBigStep = UINT16_MAX;
  struct Parent {
    std::uint32_t state = kNoParent;
    std::uint16_t rank = 0;
    std::uint16_t step = 0;  // index in the parent's visible steps, or kBigStep
  };

  // The rank that owns a state, from its StateWire hash (of its parts' words: the same on every rank).
  int owner(std::uint64_t hash) const;
  // A successor reached by step `step` of state `parent` of rank `rank`, whose place is in `key`
  // (place of the parent << step_bits_ | step).
  void accept(const std::vector<std::uint32_t>& tuple, std::uint64_t key, std::uint32_t parent, int rank,
              std::uint64_t step);
  void set_parent(std::uint32_t id, std::uint32_t parent, int rank, std::uint64_t step);
  // The key's split for a level of `level_size` states: the places take the high bits they need,
  // the step indices the rest, at most kMaxStepBits.
  void split_keys(std::uint64_t level_size);
  // Expands state `id` at `place` from step next_step_ on, building at most `budget` successors
  // (less what it builds); true when its fan-out is done, false when it is left for the next round.
  bool expand(std::uint32_t id, std::uint64_t place, std::uint64_t& budget);
  // The key of the next (state, step) this rank expands in the level, UINT64_MAX when it is done.
  std::uint64_t progress(const std::vector<std::uint32_t>& order, std::size_t done) const;
  void receive(const std::vector<std::vector<std::uint8_t>>& in);
  // The places of this level's new states (in next_place_), from their keys over all ranks.
  void rank_new_states(std::uint64_t level_size);
  std::uint64_t count_at_most(std::uint64_t place) const;

  const semantics::Lockstep& both_;
  const checker::CheckOptions& opt_;
  Communicator& comm_;
  std::size_t round_states_;
  statespace::StateCodec codec_;
  checker::Classifier classifier_;
  statespace::PartTable parts_;
  statespace::VisitedSet states_;  // flat or tree (CheckOptions::state_store)
  statespace::Expander expander_;
  StateWire wire_;
  std::vector<Parent> parents_;                                 // by state id
  std::unordered_map<std::uint32_t, std::uint64_t> big_steps_;  // by state id: steps from kBigStep
  unsigned step_bits_ = 0;                                      // of this level's keys
  std::uint64_t step_mask_ = 0;
  std::uint64_t too_many_steps_ = 0;  // a state of this rank with more steps than a key holds

  // The level being expanded: its states are ids [level_begin_, next_begin_); the next level's
  // come after, each with its least key so far (keys_, by id - next_begin_).
  std::uint64_t level_ = 0;
  std::uint32_t level_begin_ = 0, next_begin_ = 0;
  std::vector<std::uint64_t> place_;        // by id - level_begin_
  std::vector<std::uint64_t> transitions_;  // by id - level_begin_: its whole fan-out, once started
  // The state being expanded, if its fan-out is cut into slices: its steps [first_, last_), the
  // next one to build (the expander keeps the steps listed when it started until it is done).
  bool started_ = false;
  std::uint64_t first_ = 0, last_ = 0, next_step_ = 0;
  std::uint64_t built_ = 0;  // successors this rank built in the level
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint64_t> next_place_;   // by id - next_begin_, after rank_new_states()
  std::vector<std::uint64_t> ranked_keys_;  // the keys this rank ranked (a range of places), sorted
  std::uint64_t ranked_offset_ = 0;         // the place of ranked_keys_[0]

  std::vector<std::vector<std::uint8_t>> out_;  // successors for each rank, this round
  struct Sent {
    std::uint64_t place = 0;
    std::uint32_t state = 0;
  };
  std::vector<Sent> last_sent_;  // by rank: the parent of the last message to it this round
  std::vector<Candidate> candidates_;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> limit_at_;  // (level, place) first named
  std::size_t limits_seen_ = 0;
  std::uint64_t expanded_ = 0;
  // The successors this rank met last (built and accepted or sent; the ids are not used): one met
  // again is dropped, since its owner holds a key at most the one it was met with before, and
  // this rank's keys only grow (it expands its states by place). About half of the successors
  // on the unreduced stress run: neither sent nor looked up (docs/distributed.md "Measured").
  statespace::RowCache met_;
};

}  // namespace syncbisim::distributed::detail
