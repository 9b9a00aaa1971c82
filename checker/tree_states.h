#pragma once
// The visited set of the exhaustive search as LTSmin's tree compression (docs/checker.md "State
// storage"): a state's tuple of part ids is kept as a binary tree of pairs, each pair interned
// in a table of pairs (PairTable), and the state is the id of its root pair. Consecutive states
// share most subtrees (a step changes its engine's part and the global part), so a new state
// mostly adds its root pair, 8 bytes, and a 4-byte slot.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "checker/detail/row_store.h"
#include "checker/part_table.h"

namespace syncbisim::checker {

// Interns pairs of 32-bit ids: equal pairs get the same dense id (in order of first insertion).
// The pairs sit back to back by id; the open-addressing table holds one 32-bit word a slot: id + 1
// in its low bits (as many as the capacity needs) and hash bits in the others, so that most
// probes that meet another pair are settled without reading it. The capacity is not a power of
// two (positions by multiplication), so the table can grow by half and stay between 57% and 85%
// full.
class PairTable {
 public:
  static std::uint64_t hash(std::uint64_t pair);
  // The id of the pair (a | b << 32), and whether it was new.
  std::pair<std::uint32_t, bool> insert(std::uint64_t pair) { return insert(pair, hash(pair)); }
  std::pair<std::uint32_t, bool> insert(std::uint64_t pair, std::uint64_t hash);
  // Asks for the slot a pair of this hash is looked for first (see StateSet::prefetch).
  void prefetch(std::uint64_t hash) const;
  std::uint64_t pair(std::uint32_t id) const { return pairs_[id]; }
  std::size_t count() const { return pairs_.size(); }
  std::size_t bytes() const;

 private:
  void grow();
  std::size_t position(std::uint64_t h) const {
    return static_cast<std::size_t>(((h >> 32) * slots_.size()) >> 32);  // the high half: slots < 2^32
  }

  detail::RowStore<std::uint64_t> pairs_{1};
  LargeArray<std::uint32_t> slots_;  // hash bits | id + 1; 0 = empty
  std::uint32_t id_mask_ = 0;        // the bits of a slot that hold id + 1
};

// A set of fixed-width tuples of 32-bit words, each kept as a tree of pairs. Ids are dense, in
// order of first insertion, as StateSet's.
class TreeStates {
 public:
  explicit TreeStates(std::size_t width);
  std::size_t width() const { return width_; }
  // The root pair of the tuple: its subtrees interned (most are known), the root not yet.
  std::uint64_t root_of(const std::uint32_t* tuple);
  // The state whose root pair is `root` (and its hash), and whether it was new.
  std::pair<std::uint32_t, bool> insert_root(std::uint64_t root, std::uint64_t hash) {
    return nodes_.back().insert(root, hash);
  }
  std::pair<std::uint32_t, bool> insert(const std::uint32_t* tuple) {
    const std::uint64_t root = root_of(tuple);
    return insert_root(root, PairTable::hash(root));
  }
  void prefetch(std::uint64_t hash) const { nodes_.back().prefetch(hash); }
  // The tuple of state `id`, written to out[0 .. width).
  void tuple(std::uint32_t id, std::uint32_t* out) const;
  std::size_t count() const { return nodes_.back().count(); }
  std::size_t bytes() const;
  // The pairs interned in each node table below the root (for the figures of docs/checker.md).
  std::vector<std::size_t> node_counts() const;

 private:
  // Node j of the tree (post-order, the root last) joins two children: a leaf (a tuple word) or
  // an earlier node. `lo`..`hi` are the tuple words below it.
  struct Node {
    std::int32_t left, right;  // >= 0: node index; < 0: leaf ~index
    std::size_t lo, hi;
  };
  std::int32_t build(std::size_t lo, std::size_t hi);
  void unfold(std::int32_t child, std::uint32_t value, std::uint32_t* out) const;

  std::size_t width_;
  std::vector<Node> shape_;
  std::vector<PairTable> nodes_;  // by node, the root's last
  // root_of(): the tuple it saw last and the ids it gave its nodes, so that subtrees over words
  // equal to the last tuple's are not looked up again.
  std::vector<std::uint32_t> last_;
  std::vector<std::uint32_t> last_ids_;
  bool have_last_ = false;
};

}  // namespace syncbisim::checker
