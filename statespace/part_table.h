#pragma once
// Interns the parts of product states (statespace/state_codec.h): equal word sequences get the same
// dense id. Parts are stored as LEB128 bytes, since almost every word of a part (a pc, an
// iteration number, a count) is below 128: a byte instead of four. An open-addressing table of
// ids, each slot keeping half of its part's hash, finds them.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "statespace/detail/hash_slots.h"
#include "statespace/detail/huge_pages.h"
#include "statespace/detail/row_store.h"
#include "statespace/detail/segmented.h"
#include "statespace/detail/spin_lock.h"
#include "statespace/part_words.h"

namespace syncbisim::statespace {

// The store's large arrays, on huge pages where the system gives them (statespace/detail/huge_pages.h).
template <class T>
using LargeArray = std::vector<T, detail::HugePageAllocator<T>>;

class PartTable {
 public:
  // A table used by `threads` threads at once. Of one thread, it takes no lock. Shared (check
  // --threads): lookups and read() take no lock (a part's bytes never move; a thread only reads
  // ids it learnt through the table or through the search's barriers), and a new part is
  // interned under a lock, of one shard of the table by hash: one shard for every two threads
  // (a power of two, 64 at most). Only new parts take a lock, so few shards contend little, and
  // each shard spreads the hot parts over lines and pages of its own: two threads on 64 shards
  // spent 1,846 samples in read() against 1,067 on one shard (docs/checker.md "Threads").
  explicit PartTable(unsigned threads = 1);
  std::uint32_t intern(const PartWords& words);
  // The words of part `id`.
  void read(std::uint32_t id, PartWords& out) const;
  std::size_t count() const;
  std::size_t bytes() const;

 private:
  // What every read and lookup reads (`published`, the segments' pointers) lies on other cache
  // lines than what an intern of a new part writes (the lock, the count, the segments' sizes):
  // else each new part on one thread makes the other threads' reads miss (docs/checker.md
  // "Threads").
  struct Shard {
    alignas(64) detail::SpinLock lock;
    std::size_t count = 0;
    // High half of the hash, local id + 1; 0 = empty. Shared: `published` is `slots` for lookups
    // without the lock, and the tables it replaced stay in `retired` (their lookups may still run).
    std::unique_ptr<detail::Slots> slots = std::make_unique<detail::Slots>(detail::regrow(detail::Slots{}));
    std::vector<std::unique_ptr<detail::Slots>> retired;
    alignas(64) std::atomic<const detail::Slots*> published{slots.get()};
    detail::Segmented<std::uint8_t> arena;
    detail::Segmented<std::uint64_t> where;  // per part: first byte << 24 | length
  };
  bool equal(const Shard& s, std::uint32_t local, const std::uint8_t* bytes, std::size_t n) const;

  unsigned log2_shards_;
  bool shared_;
  std::vector<std::unique_ptr<Shard>> shards_;
};

// A set of fixed-width tuples of 32-bit words (a state is the tuple of its part ids): the
// tuples sit back to back, ids are their positions, and the table holds ids only.
class StateSet {
 public:
  explicit StateSet(std::size_t width) : width_(width), tuples_(width) {}
  // The id of the tuple, and whether it was new.
  std::pair<std::uint32_t, bool> insert(const std::uint32_t* tuple) { return insert(tuple, hash(tuple)); }
  // The same with the tuple's hash() already computed (and its slot prefetched, see below).
  std::pair<std::uint32_t, bool> insert(const std::uint32_t* tuple, std::uint64_t hash);
  std::uint64_t hash(const std::uint32_t* t) const;
  // Asks the processor to fetch the slot where a tuple of this hash is looked for first: a
  // caller with other work to do before insert() hides the cache miss behind it.
  void prefetch(std::uint64_t hash) const;
  const std::uint32_t* tuple(std::uint32_t id) const { return tuples_.row(id); }
  std::size_t count() const { return tuples_.size(); }
  std::size_t bytes() const;

 private:
  bool same(const std::uint32_t* a, const std::uint32_t* b) const;

  std::size_t width_;
  detail::RowStore<std::uint32_t> tuples_;
  LargeArray<std::uint64_t> slots_;  // high half of the hash, id + 1; 0 = empty
};

}  // namespace syncbisim::statespace
