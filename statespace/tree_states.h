#pragma once
// The visited set of the exhaustive search as a two-level tree (docs/checker.md "State storage",
// after LTSmin's tree compression): a state's tuple of part ids is split into two halves, each
// half interned in a table of rows (RowTable), and the state is the pair of its two half ids,
// interned in a table of root pairs kept in as few bits as the ids need (PackedPairs). A step
// changes one engine's part and perhaps the global part, so a successor keeps one half of its
// parent mostly, and a new state adds its root pair, about 5 bytes, and a 4-byte slot.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

#include "statespace/detail/row_store.h"
#include "statespace/part_table.h"
#include "statespace/row_cache.h"

namespace syncbisim::statespace {

// An open-addressing index of dense ids whose entries live elsewhere: one 32-bit word a slot, id
// + 1 in its low bits (as many as the capacity needs) and hash bits in the others, so that most
// probes that meet another entry are settled without reading it. The capacity is not a power of
// two (positions by multiplication), so the index grows by half and stays 57-85% full.
class CompactIndex {
 public:
  bool full(std::size_t count) const { return count * kFullDen > slots_.size() * kFullNum; }
  // Rebuilds the slots for `count` ids at the next capacity; hash_of(id) gives each id's hash.
  template <class HashOf>
  void grow(std::size_t count, HashOf&& hash_of);
  // The id whose entry equal(id) holds the key of hash `h`, or else `count` (the slot is taken for
  // it: the caller adds the entry). Not full(count + 1).
  template <class Equal>
  std::pair<std::uint32_t, bool> find_or_add(std::uint64_t h, std::uint32_t count, Equal&& equal) {
    const std::size_t cap = slots_.size();
    const std::uint32_t tag = static_cast<std::uint32_t>(h) & ~id_mask_;
    for (std::size_t i = position(h);;) {
      const std::uint32_t slot = slots_[i];
      if (slot == 0) {
        slots_[i] = tag | (count + 1);
        return {count, true};
      }
      if ((slot & ~id_mask_) == tag && equal((slot & id_mask_) - 1)) return {(slot & id_mask_) - 1, false};
      if (++i == cap) i = 0;
    }
  }
  // Asks for the slot a key of this hash is looked for first: a caller with other work to do
  // before find_or_add() hides the cache miss behind it.
  // Unconditional: GCC 12 drops a __builtin_prefetch under `if (!slots_.empty())` altogether
  // (the tree store's root slot was never prefetched so), and a prefetch of the empty index's
  // null data (position 0) is harmless, as any prefetch: it never faults.
  void prefetch(std::uint64_t h) const {
#if defined(__GNUC__)
    __builtin_prefetch(slots_.data() + position(h));
#endif
  }
  std::size_t capacity() const { return slots_.size(); }
  std::size_t bytes() const { return slots_.capacity() * sizeof(std::uint32_t); }

 private:
  // Full at 85%; grown by half, an index is between 57% and 85% full. Linear probing at 85% looks
  // at about 4 slots for a key it holds and 22 (two cache lines) for one it does not.
  static constexpr std::size_t kFullNum = 17, kFullDen = 20;
  std::size_t position(std::uint64_t h) const {
    return static_cast<std::size_t>(((h >> 32) * slots_.size()) >> 32);  // the high half: slots < 2^32
  }
  LargeArray<std::uint32_t> slots_;  // hash bits | id + 1; 0 = empty
  std::uint32_t id_mask_ = 0;        // the bits of a slot that hold id + 1
};

// Interns rows of a fixed number of 32-bit words: equal rows get the same dense id (in order of
// first insertion). The rows sit back to back by id.
class RowTable {
 public:
  explicit RowTable(std::size_t width) : width_(width), rows_(width) {}
  std::uint64_t hash(const std::uint32_t* row) const;
  // The id of the row, and whether it was new.
  std::pair<std::uint32_t, bool> insert(const std::uint32_t* row) { return insert(row, hash(row)); }
  std::pair<std::uint32_t, bool> insert(const std::uint32_t* row, std::uint64_t hash);
  void prefetch(std::uint64_t hash) const { index_.prefetch(hash); }
  const std::uint32_t* row(std::uint32_t id) const { return rows_.row(id); }
  std::size_t count() const { return rows_.size(); }
  std::size_t bytes() const { return rows_.bytes() + index_.bytes(); }

 private:
  std::size_t width_;
  detail::RowStore<std::uint32_t> rows_;
  CompactIndex index_;
};

// Pairs of 32-bit ids by dense id, each in as many bits as its chunk's largest ids need (the
// ids of a search's halves stay far below 2^32). A chunk's widths only grow: a pair that does not
// fit repacks the last chunk, whose earlier pairs all fit the wider widths.
class PackedPairs {
 public:
  std::uint64_t get(std::size_t i) const {
    const Chunk& c = chunks_[i >> kLog2];
    const unsigned width = c.left_bits + c.right_bits;
    const std::size_t bit = (i & kMask) * width;
    const std::uint64_t* w = c.words.data() + (bit >> 6);
    const unsigned off = static_cast<unsigned>(bit & 63);
    std::uint64_t v = w[0] >> off;
    if (off + width > 64) v |= w[1] << (64 - off);
    const std::uint64_t left = v & ((std::uint64_t{1} << c.left_bits) - 1);
    const std::uint64_t right = (v >> c.left_bits) & ((std::uint64_t{1} << c.right_bits) - 1);
    return left | right << 32;
  }
  void push(std::uint64_t pair);
  void prefetch(std::size_t i) const;
  std::size_t size() const { return rows_; }
  std::size_t bytes() const;

 private:
  static constexpr unsigned kLog2 = 16;
  static constexpr std::size_t kRows = std::size_t{1} << kLog2;
  static constexpr std::size_t kMask = kRows - 1;
  struct Chunk {
    std::vector<std::uint64_t> words;
    unsigned left_bits = 0, right_bits = 0;  // each at most 32
  };
  static void put(Chunk& c, std::size_t row, std::uint64_t pair);
  std::vector<Chunk> chunks_;
  std::size_t rows_ = 0;
};

// A set of fixed-width tuples of 32-bit words, each kept as the pair of its halves' ids. Ids are
// dense, in order of first insertion, as StateSet's.
class TreeStates {
 public:
  explicit TreeStates(std::size_t width);
  std::size_t width() const { return width_; }
  // The root pair of the tuple: its halves interned (most are known), the root not yet.
  std::uint64_t root_of(const std::uint32_t* tuple);
  static std::uint64_t hash(std::uint64_t root);
  // The state whose root pair is `root` (and its hash), and whether it was new.
  std::pair<std::uint32_t, bool> insert_root(std::uint64_t root, std::uint64_t hash);
  std::pair<std::uint32_t, bool> insert(const std::uint32_t* tuple) {
    const std::uint64_t root = root_of(tuple);
    return insert_root(root, hash(root));
  }
  void prefetch(std::uint64_t hash) const { roots_index_.prefetch(hash); }
  // The tuple of state `id`, written to out[0 .. width). Its halves are remembered: the
  // successors of a state keep one half of it mostly, and root_of() finds it without a lookup
  // (by comparing it with the tuple given last, else in the half caches). So the const members
  // write the caches too: a TreeStates is for one thread, even to read (the threaded search keeps
  // root pairs of its own, detail/shared_halves.h; docs/checker.md "State storage").
  void tuple(std::uint32_t id, std::uint32_t* out) const;
  // Asks for the rows tuple(id) will read.
  void prefetch_tuple(std::uint32_t id) const;
  std::size_t count() const { return roots_.size(); }
  std::size_t bytes() const;
  // Figures for docs/checker.md: rows per half table, the root pairs' bytes and the index's.
  std::vector<std::size_t> half_counts() const;
  std::size_t root_bytes() const { return roots_.bytes(); }
  std::size_t index_bytes() const { return roots_index_.bytes(); }

 private:
  // Words lo..hi of the tuple. A half of one word is its own id; a wider one is interned, with a
  // cache of its recent rows in front of the table (most successors' halves were met by one of
  // the last few states).
  struct Half {
    std::size_t lo, hi;
    RowTable table;
    mutable RowCache cache;
    mutable std::uint32_t decoded = RowCache::kNone;  // the id of this half of the tuple tuple() gave last
  };
  std::uint32_t intern(Half& h, const std::uint32_t* words);

  std::size_t width_;
  mutable std::vector<std::uint32_t> decoded_;  // the tuple tuple() gave last
  std::vector<Half> halves_;                    // none (width 1: the root is (word, 0); width 2: the two words), or two
  PackedPairs roots_;
  CompactIndex roots_index_;
};

template <class HashOf>
void CompactIndex::grow(std::size_t count, HashOf&& hash_of) {
  const std::size_t cap = slots_.empty() ? 1024 : slots_.size() + slots_.size() / 2;
  // Slots hold 32 bits; past that the table cannot grow, which a search treats as memory running
  // out (thrown before anything changes, so the search keeps what it found and ends inconclusive,
  // docs/checker.md "Search").
  if (cap >= (std::size_t{1} << 32)) throw std::bad_alloc();
  // id + 1 <= count < cap: bit_width(cap) bits hold it; the others keep hash bits.
  const unsigned id_bits = static_cast<unsigned>(std::bit_width(cap));
  id_mask_ = id_bits >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << id_bits) - 1;
  slots_ = LargeArray<std::uint32_t>();  // the old slots are rebuilt from the entries
  slots_.assign(cap, 0);
  // The entries are read in id order (their rows back to back) and placed at random: each id's
  // hash is worked out kAhead ids before it is placed and its slot prefetched, so that the
  // rebuild waits on many misses at once, not on one after the other.
  constexpr std::size_t kAhead = 16;
  std::uint64_t ahead[kAhead];
  const auto fetch = [&](std::size_t id) {
    const std::uint64_t h = hash_of(static_cast<std::uint32_t>(id));
#if defined(__GNUC__)
    __builtin_prefetch(slots_.data() + position(h), 1);
#endif
    ahead[id % kAhead] = h;
  };
  for (std::size_t id = 0; id < count && id < kAhead; ++id) fetch(id);
  for (std::size_t id = 0; id < count; ++id) {
    const std::uint64_t h = ahead[id % kAhead];
    if (id + kAhead < count) fetch(id + kAhead);
    std::size_t i = position(h);
    while (slots_[i] != 0)
      if (++i == cap) i = 0;
    slots_[i] = (static_cast<std::uint32_t>(h) & ~id_mask_) | static_cast<std::uint32_t>(id + 1);
  }
}

}  // namespace syncbisim::statespace
