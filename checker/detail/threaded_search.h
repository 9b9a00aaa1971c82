#pragma once
// Internal to the explorer: the breadth-first search on several threads (check --threads,
// docs/checker.md "Threads"). It gives what Exhaustive gives on one thread: the same states,
// transitions, violations (each at the same first state) and traces, whatever the timing.
//
// The search goes level by level. The states of a level, in breadth-first order (the order a
// single-threaded search numbers them in), are expanded in chunks that threads take in turn; every
// successor goes into the shared visited set (SharedStates) with its key, the breadth-first id of
// its parent and the index of the step. A state new in the next level keeps the least key that
// reached it, and each thread lists the keys it made least, in increasing order (a thread takes
// chunks in increasing order). After the level, the lists' entries still least, merged by key,
// are the next level in breadth-first order: a single-threaded search numbers a state by the
// first parent that reaches it and by that parent's first step to it.
#include <atomic>
#include <barrier>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "checker/classifier.h"
#include "checker/explorer.h"
#include "statespace/memo_table.h"
#include "statespace/part_table.h"
#include "statespace/shared_halves.h"
#include "statespace/shared_states.h"
#include "statespace/state_codec.h"
#include "statespace/stopwatch.h"

namespace syncbisim::checker::detail {

class ThreadedSearch {
 public:
  static constexpr std::size_t kChunk = 128;
  // `chunk`: the states of a level a thread takes at a time (tests take 1, so that even small
  // levels are shared).
  ThreadedSearch(const semantics::Lockstep& both, const CheckOptions& o, unsigned threads, std::size_t chunk = kChunk);
  ~ThreadedSearch();
  CheckResult run();

 private:
  static constexpr std::uint64_t kMaxStep = 0xffffffffU;  // a step's index in a key: 32 bits
  struct Worker;
  struct Claim {
    std::uint64_t key;
    std::uint32_t id;
  };

  // Makes thread w's share (on that thread: see work()).
  void make_worker(unsigned w);
  // What every thread runs; thread 0 also ends each level, and searches alone the levels too
  // small to share.
  void work(unsigned w);
  // This thread's share of the level: chunks taken in turn until none is left or a limit hits.
  void expand_level(Worker& me);
  // After the level: the least keys of this thread's claims give way to their parents.
  void set_parents(const Worker& me);
  // After the level: this thread's share of the state set's growth for the next one
  // (SharedStates::make_room), so that partitions seldom grow under a level's inserts; the
  // thread of the last share also settles the memo's table (settle_memo) meanwhile.
  void make_room(unsigned share, unsigned shares);
  // After the level, on one thread: the memo's inserts are counted and it grows (or forgets)
  // for the next level, whose inserts are guessed to grow as its states do (`growth`), within
  // the budget of `states` states found.
  void settle_memo(double growth, std::uint64_t states);
  // Thread 0: end_level(), an exception ending the search instead of leaving the thread.
  void end_level_or_stop();
  // Expands the states first..last-1 of the level (chunk `chunk`); false if a limit cut it short.
  bool expand(Worker& me, std::size_t chunk, std::size_t first, std::size_t last);
  // Expands the level's state x (statespace::Expander) and adds its successors; false if a
  // limit cut its fan-out short.
  bool expand_state(Worker& me, std::size_t chunk, std::size_t x);
  // What the visited set keeps of a tuple: the tuple itself, or with the tree store its root pair.
  const std::uint32_t* stored(Worker& me, const std::vector<std::uint32_t>& tuple);
  // The tuple of the state stored under `id`.
  const std::uint32_t* tuple_of(Worker& me, std::uint32_t id);
  void enqueue(Worker& me, const std::vector<std::uint32_t>& tuple, std::uint64_t key);
  void flush(Worker& me);
  void check_limits(Worker& me);
  // With max-states: chunk c was expanded and added `added` states.
  void chunk_done(std::size_t c, std::uint64_t added);
  // Thread 0, before a level: the max-states bookkeeping of its chunks.
  void start_level();
  void stop(const std::string& limit);
  // A thread's claims still least after the level are kept.
  void settle_claims(Worker& me);
  // Thread 0, at the end of a level: the next level in order, max-states, and whether to go on.
  void end_level();
  CheckResult result();
  std::vector<semantics::Step> trace_to(std::uint32_t id) const;
  // Exact between levels; during one, close (the other threads' tables are not read).
  std::size_t bytes() const;
  std::size_t exact_bytes() const;

  const semantics::Lockstep& both_;
  const CheckOptions& opt_;
  const unsigned threads_;
  const std::size_t chunk_;
  statespace::StateCodec codec_;
  statespace::PartTable parts_{threads_};
  // check --state-store tree: the tuples' halves (states_ keeps their root pairs); else none.
  std::optional<statespace::SharedHalves> halves_;
  statespace::SharedStates states_;
  // The step memo of every thread (statespace/memo_table.h), and its interned contexts.
  statespace::MemoTable memo_;
  statespace::PartTable memo_contexts_{threads_};
  std::vector<std::unique_ptr<Worker>> workers_;
  std::barrier<> barrier_;
  statespace::Clock::time_point t0_;

  // The level being expanded: its states' storage ids in breadth-first order, the first one's
  // breadth-first id, and the states found so far (up to the level's end).
  std::vector<std::uint32_t> level_;
  std::uint64_t first_ = 0, found_ = 0, depth_ = 0;
  std::atomic<std::size_t> next_chunk_{0};
  std::vector<std::uint32_t> steps_of_;   // with max-states: the transitions built from each of the level's states
  std::vector<std::uint64_t> fanout_of_;  // with max-states: the steps each of the level's states has
  // The last chunk of the level the search needs: a thread that added as many states as the
  // max-states limit lets in stops, and with it the threads in later chunks.
  std::atomic<std::size_t> last_chunk_{SIZE_MAX};
  std::atomic<bool> stop_{false};  // a limit was hit: no more chunks
  // With max-states: the states added by each chunk of the level (-1: not yet expanded), the
  // chunks expanded without a gap from the first, and the states they added. Once those reach
  // the limit, the single-threaded search stops within them: no more chunks are needed.
  std::mutex prefix_mutex_;
  std::vector<std::int64_t> chunk_added_;
  std::size_t prefix_ = 0;
  std::uint64_t prefix_added_ = 0;
  std::atomic<bool> enough_{false};
  bool done_ = false;
  std::mutex limit_mutex_;
  std::string limit_;                // the limit that stopped the search, if any
  std::uint64_t last_ = UINT64_MAX;  // with max-states: the last state expanded (breadth-first id)
  std::uint64_t transitions_cut_ = 0;
  std::exception_ptr error_;
  std::size_t bytes_fixed_ = 0;  // during a level: the bytes besides states_, as at its start
  double last_progress_ = 0;
};

}  // namespace syncbisim::checker::detail
