#pragma once
// For the threaded search (checker/detail/threaded_search.h), for check --state-store
// tree: a state's tuple of part ids kept as its root pair, as TreeStates keeps it for one thread
// (docs/checker.md "State storage"). The tuple's two halves are interned in one part table all threads
// share (lookups without a lock, PartTable's shards), and the shared visited set keeps the pair
// of their ids: two words a state instead of the tuple. A step changes one engine's part and
// perhaps the global part, so most successors keep a half of a state met just before: each
// thread keeps a cache of the halves it met last in front of the table (RowCache).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "statespace/part_table.h"
#include "statespace/part_words.h"
#include "statespace/row_cache.h"

namespace syncbisim::statespace {

class SharedHalves {
 public:
  static constexpr std::size_t kRootWidth = 2;
  // One thread's own: the halves it met last, with their ids.
  class Cache {
   public:
    explicit Cache(const SharedHalves& halves);
    std::size_t bytes() const;

   private:
    friend class SharedHalves;
    RowCache of_[2];  // per half
    PartWords words_;
  };

  // Tuples of `width` part ids, folded by `threads` threads at once.
  SharedHalves(std::size_t width, unsigned threads);
  // The root pair of `tuple` into root[0], root[1]; its halves interned if new.
  void fold(const std::uint32_t* tuple, std::uint32_t* root, Cache& cache);
  // The tuple of a root pair fold() gave (on any thread) into tuple[0 .. width).
  void unfold(const std::uint32_t* root, std::uint32_t* tuple, Cache& cache) const;
  std::size_t bytes() const { return table_.bytes(); }

 private:
  // Half k is words lo(k) .. hi(k) of the tuple. A tuple of one word has a right half of none
  // (its id 0); a half of one word is its own id; a wider one is interned.
  std::size_t lo(unsigned k) const { return k == 0 ? 0 : mid_; }
  std::size_t hi(unsigned k) const { return k == 0 ? mid_ : width_; }

  std::size_t width_, mid_;
  PartTable table_;
};

}  // namespace syncbisim::statespace
