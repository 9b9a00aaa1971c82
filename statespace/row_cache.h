#pragma once
// For the state stores and the searches: a small direct-mapped cache of the rows met last, with their
// ids, in front of the table that holds them. The tree stores (statespace/tree_states.h,
// statespace/shared_halves.h) keep one per half: a step changes one engine's part and perhaps
// the global part, so most successors keep a half of a state met just before. The searches keep
// one of the states met last (checker/detail/exhaustive.h, threaded_search.h): in breadth-first
// order a state is mostly met again a few successors after it was first met, by a sibling of its
// first parent. Found here, a row costs no look in the table (a cache miss or two).
// 4,096 entries of a few words: the cache stays in a core's second-level cache.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace syncbisim::statespace {

class RowCache {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static constexpr std::size_t kLog2Entries = 12;

  RowCache() = default;
  // Rows of `width` words. A cache of width 0 holds nothing, takes no memory and must not be
  // asked (the tree stores keep a half of one word as its own id, and cache none).
  explicit RowCache(std::size_t width)
      : width_(width), entries_(width > 0 ? (std::size_t{1} << kLog2Entries) * (width + 1) : 0, kNone) {}

  // The id of row `words`, whose hash is `hash`, if it is the row its entry holds; else kNone.
  std::uint32_t find(const std::uint32_t* words, std::uint64_t hash) const {
    const std::uint32_t* e = entries_.data() + at(hash);
    // A row is a handful of words: a loop beats the call to memcmp that std::equal makes.
    for (std::size_t i = 0; i < width_; ++i)
      if (e[i] != words[i]) return kNone;
    return e[width_];
  }
  // Row `words` (hash `hash`) has id `id`: it takes its entry.
  void put(const std::uint32_t* words, std::uint64_t hash, std::uint32_t id) {
    std::uint32_t* e = entries_.data() + at(hash);
    std::copy(words, words + width_, e);
    e[width_] = id;
  }
  std::size_t bytes() const { return entries_.capacity() * sizeof(std::uint32_t); }

 private:
  // Where the entry of a row of this hash starts: the row's words, then its id (kNone: empty).
  std::size_t at(std::uint64_t hash) const { return (hash & ((std::size_t{1} << kLog2Entries) - 1)) * (width_ + 1); }

  std::size_t width_ = 0;
  std::vector<std::uint32_t> entries_;
};

}  // namespace syncbisim::statespace
