#pragma once
// For the threaded search (checker/detail/threaded_search.h): the visited set all threads
// insert into at once. A state is the tuple of its part ids, as in StateSet, stored by a storage
// id that each thread takes from blocks it reserves (kBlock ids at a time), so storage ids follow
// timing, not discovery order; the search keeps the order itself (see threaded_search.h).
//
// The slots are split by hash into partitions, each with its own lock and its own growth, so a
// thread growing one partition holds up no insert into the others; lookups take no lock, and
// find a partition's slots through the thread's own Views. The
// partitions grow between levels, ahead of the next one (make_room), and within a level only if
// it was guessed too small; nothing under a lock allocates or touches fresh memory otherwise
// (a thread reserves its ids, and writes their rows once, before it locks). Each
// state found in the level being searched also keeps the least key (parent's breadth-first id
// << 32 | step index) of the successors that reached it, lowered atomically: the key a
// single-threaded search meets it by first. After the level that word holds the parent.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "statespace/detail/chunked_rows.h"
#include "statespace/detail/hash_slots.h"
#include "statespace/detail/spin_lock.h"

namespace syncbisim::statespace {

class SharedStates {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  static constexpr std::uint32_t kBlock = 256;
  // A thread's reserved storage ids: next .. end. Each reservation doubles the one before, from
  // one id to kBlock: the ids a level leaves unused (begin_level drops them) are then at most
  // the ids the thread used in it, so a search of many small levels (a chain of one state per
  // level) does not take kBlock rows per thread per level.
  struct Ids {
    std::uint32_t next = 0, end = 0;
    std::uint32_t block = 1;  // the size of the next reservation
  };
  // A thread's own copy of where each partition's slots are (1 KB, in that thread's memory), taken
  // at the start of each level (look()): a lookup then reads one word it alone uses instead of
  // a shared table's header. A table that grows within the level stays readable to its end, so a
  // view stays safe for the level; one that is out of date misses the entries added since, and
  // the insert looks again under the lock, where the thread's view of that partition is renewed.
  struct View {
    const std::uint64_t* slots = nullptr;  // none: the partition has no table yet
    std::size_t mask = 0;
  };
  // Two partitions a thread, 64 at most: enough that two threads seldom want one lock at once,
  // few enough that each partition's table soon passes the 2 MiB from which it sits on huge
  // pages (HugePageAllocator). With 64 partitions for two threads, the tables of a 17.9 M-state
  // search stayed below 2 MiB, on 4 KiB pages, for most of it, and a lookup's first slot missed
  // the TLB (docs/checker.md "Threads": 12.3 s against 11.2 s with 8 partitions).
  static constexpr std::size_t kMaxPartitions = 64;
  struct Views {
    View of[kMaxPartitions];
  };
  struct Inserted {
    std::uint32_t id;
    bool claimed;  // the state is new in this level and `key` is now its least key
    bool added;    // the state was not in the set
  };

  // For a search on `threads` threads (the partitions are as many as they need).
  SharedStates(std::size_t width, unsigned threads);

  std::uint64_t hash(const std::uint32_t* t) const { return detail::hash_words(t, width_); }
  // Where each partition's slots are now (before a level, with no thread inserting).
  void look(Views& views) const;
  // Asks for the slot a tuple of this hash is looked for first (see StateSet::prefetch).
  void prefetch(std::uint64_t h, const Views& views) const;
  // The tuple, reached by the successor `key`: inserted if new (with a storage id from `ids`);
  // if it was new in this level, its least key lowered to `key`.
  Inserted insert(const std::uint32_t* tuple, std::uint64_t h, std::uint64_t key, Ids& ids, Views& views);

  // Between levels (no thread reading or inserting): the partitions i with i % shares == share
  // grow now, all threads at once, to hold `expected` more states spread over the partitions by
  // hash, so that they seldom grow during a level, under their locks, while other threads wait.
  void make_room(std::size_t expected, unsigned share, unsigned shares);
  // A new level starts (no thread inserting): the states inserted from here on are its states,
  // and every thread's reserved ids are dropped (they must be reserved again).
  void begin_level();
  bool in_level(std::uint32_t id) const { return id >= level_base_; }
  // The least key of a state of the level, until set_parent() replaces it.
  std::uint64_t key(std::uint32_t id) const {
    return std::atomic_ref<std::uint64_t>(*key_of(id)).load(std::memory_order_relaxed);
  }

  const std::uint32_t* tuple(std::uint32_t id) const { return rows_.row(id); }
  std::size_t width() const { return width_; }
  std::uint32_t parent(std::uint32_t id) const { return static_cast<std::uint32_t>(*key_of(id)); }
  // After the level, once no thread reads key(id) any more.
  void set_parent(std::uint32_t id, std::uint32_t parent) { *key_of(id) = parent; }

  // The bytes taken: exact when no thread is inserting, else close.
  std::size_t bytes() const;

 private:
  static std::size_t partitions_for(unsigned threads);
  // A partition's slots. Lookups read them without the lock (slots are written with release
  // stores, after the tuple and key they point to); inserts take the lock. A partition that
  // grows publishes a new Table and keeps the old one to the end of the level, for lookups
  // still reading it (they miss only entries added since, and then look again under the lock).
  struct alignas(64) Table {
    detail::Slots slots;
  };
  struct alignas(128) Partition {
    detail::SpinLock lock;
    std::unique_ptr<Table> current;
    std::vector<std::unique_ptr<Table>> retired;
    std::size_t count = 0;
  };
  // The state whose tuple is `t` in the slots `v` sees, or kNone (looked up without the lock).
  std::uint32_t find(const View& v, const std::uint32_t* t, std::uint64_t h) const;
  // Is state `id`'s tuple `t`? (A tuple is a handful of words: a loop beats a call to memcmp.)
  bool same_row(std::uint32_t id, const std::uint32_t* t) const {
    const std::uint32_t* row = rows_.row(id);
    for (std::size_t k = 0; k < width_; ++k)
      if (row[k] != t[k]) return false;
    return true;
  }
  static View view_of(const Table* tab) { return tab ? View{tab->slots.data(), tab->slots.size() - 1} : View{}; }
  // Lowers the least key of state `id`, new in this level, to `key`; did it?
  bool lower(std::uint32_t id, std::uint64_t key);
  // Makes sure `ids` holds an id to take, reserving the next block if it is used up.
  void reserve(Ids& ids);
  // Gives partition p a table of `cap` slots (more than its current one), kept as table():
  // the old one is retired to the end of the level if `readers` may still read it, else freed.
  void grow(Partition& p, std::size_t cap, bool readers);
  // A row is the tuple, padded to an even number of words, then one 64-bit word: the least key
  // while its state's level is searched (beside the tuple a lookup compares, so on the same
  // cache line), its parent's storage id after.
  std::uint64_t* key_of(std::uint32_t id) const { return reinterpret_cast<std::uint64_t*>(rows_.row(id) + key_at_); }

  std::size_t width_;
  std::size_t partition_mask_;  // partitions - 1 (a power of two)
  std::unique_ptr<Partition[]> partitions_;
  // Each partition's table, read by every lookup and written only when it grows: packed on lines
  // of their own, apart from the locks and counts every insert writes.
  alignas(64) std::atomic<const Table*> tables_[kMaxPartitions] = {};
  std::size_t key_at_;                       // words before the key in a row
  detail::ChunkedRows<std::uint32_t> rows_;  // by storage id
  std::uint32_t level_base_ = 0;
  // Written by the threads now and then (a reservation, a growth): apart from what every lookup
  // reads. next_: the first storage id no thread has reserved (64 bits: never wraps).
  alignas(64) std::atomic<std::uint64_t> next_{0};
  std::atomic<std::size_t> slot_bytes_{0};
};

}  // namespace syncbisim::statespace
