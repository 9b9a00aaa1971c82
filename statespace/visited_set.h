#pragma once
// The visited set of a search whose states one thread owns: the one-thread search's
// (checker/detail/exhaustive.h) and each MPI rank's share (distributed/detail/level_search.h).
// Its store is chosen when the search starts (check --state-store, docs/checker.md "State
// storage"): flat tuples of part ids (StateSet) or each tuple as the pair of its halves' ids
// (TreeStates). The threads' search shares one set between threads: shared_states.h, with
// shared_halves.h for the tree store. Either store gives the same ids in the same order, so a
// search's states, transitions and traces do not depend on it, only its bytes.
//
// A state is indexed by its key: its tuple (flat), or its root pair once its halves are
// interned (tree, two words). A search works out a successor's key and hash when it builds it,
// prefetches the slot, and inserts the key a few successors later, when the slot has arrived.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include "statespace/part_table.h"
#include "statespace/state_store.h"
#include "statespace/tree_states.h"

namespace syncbisim::statespace {

class VisitedSet {
 public:
  VisitedSet(std::size_t parts, StateStore store);

  StateStore store() const { return tree() ? StateStore::Tree : StateStore::Flat; }
  // The words of a key: the tuple's (flat) or two (the tree's root pair).
  std::size_t key_words() const { return tree() ? 2 : parts_; }

  // Writes the key of `tuple` to key[0 .. key_words()) and returns its hash. With the tree
  // store the tuple's halves are interned now (their tables are small and mostly hit).
  std::uint64_t key_of(const std::uint32_t* tuple, std::uint32_t* key) {
    if (auto* t = tree()) {
      const std::uint64_t root = t->root_of(tuple);
      key[0] = static_cast<std::uint32_t>(root);
      key[1] = static_cast<std::uint32_t>(root >> 32);
      return TreeStates::hash(root);
    }
    for (std::size_t i = 0; i < parts_; ++i) key[i] = tuple[i];
    return flat().hash(tuple);
  }
  // Asks for the slot a key of this hash is looked for first.
  void prefetch(std::uint64_t hash) const {
    if (const auto* t = tree()) t->prefetch(hash);
    else flat().prefetch(hash);
  }
  // The id of the state whose key is `key` (of hash `hash`), and whether it was new: ids are
  // dense, in order of first insertion.
  std::pair<std::uint32_t, bool> insert_key(const std::uint32_t* key, std::uint64_t hash) {
    auto* t = tree();
    if (!t) return flat().insert(key, hash);
    const std::uint64_t root = key[0] | std::uint64_t{key[1]} << 32;
    return t->insert_root(root, hash);
  }
  std::pair<std::uint32_t, bool> insert(const std::uint32_t* tuple) {
    auto* t = tree();
    return t ? t->insert(tuple) : flat().insert(tuple);
  }

  // The tuple of state `id`: the flat store's own row, or the tree's unfolded into a buffer that
  // the next call overwrites.
  const std::uint32_t* tuple(std::uint32_t id) const {
    const auto* t = tree();
    if (!t) return flat().tuple(id);
    t->tuple(id, unfolded_.data());
    return unfolded_.data();
  }
  // Asks for the rows tuple(id) will read (the tree's; a flat row is one read anyway).
  void prefetch_tuple(std::uint32_t id) const {
    if (const auto* t = tree()) t->prefetch_tuple(id);
  }

  std::size_t count() const {
    const auto* t = tree();
    return t ? t->count() : flat().count();
  }
  std::size_t bytes() const;

 private:
  // The store's alternative: the one the other is not (the variant's index, read on every call).
  TreeStates* tree() { return std::get_if<TreeStates>(&store_); }
  const TreeStates* tree() const { return std::get_if<TreeStates>(&store_); }
  StateSet& flat() { return *std::get_if<StateSet>(&store_); }
  const StateSet& flat() const { return *std::get_if<StateSet>(&store_); }

  std::size_t parts_;
  std::variant<StateSet, TreeStates> store_;
  mutable std::vector<std::uint32_t> unfolded_;  // the tree's last tuple()
};

}  // namespace syncbisim::statespace
