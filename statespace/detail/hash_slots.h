#pragma once
// Internal to the state store: the slots of its open-addressing tables (PartTable, StateSet and
// the threaded search's SharedStates). A slot holds an id + 1 (0 = empty) in its low half and the
// high half of the entry's hash in its high half: a probe that meets another entry is told apart
// by the slot alone, without a cache miss on the entry itself (measured: the tables' misses were
// a quarter of the time).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "statespace/detail/huge_pages.h"

namespace syncbisim::statespace::detail {

using Slots = std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>>;

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

// The hash of a row of n words (a tuple of part ids, a half of one): the stores' tables hash
// their rows with it.
inline std::uint64_t hash_words(const std::uint32_t* words, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < n; ++i) h = mix(h, words[i]);
  return h;
}

inline std::uint64_t slot_of(std::uint32_t id, std::uint64_t h) { return (h & 0xffffffff00000000ULL) | (id + 1ULL); }
inline std::uint32_t id_of(std::uint64_t slot) { return static_cast<std::uint32_t>(slot) - 1; }
inline bool same_hash(std::uint64_t slot, std::uint64_t h) { return ((slot ^ h) >> 32) == 0; }

// Tables grow by doubling, placing entries again by the hash kept in their slots: the low bits
// of a position come from the kept high half, which fits every capacity below 2^32. (The low
// half of a hash is left for choosing a shard.)
inline std::size_t position(std::uint64_t h, std::size_t mask) { return static_cast<std::size_t>(h >> 32) & mask; }

// The slots again in `cap` slots (a power of two that holds them all).
inline Slots regrow(const Slots& slots, std::size_t cap) {
  Slots fresh(cap, 0);
  for (const auto slot : slots) {
    if (slot == 0) continue;
    std::size_t i = position(slot, cap - 1);
    while (fresh[i] != 0) i = (i + 1) & (cap - 1);
    fresh[i] = slot;
  }
  return fresh;
}

inline Slots regrow(const Slots& slots) { return regrow(slots, slots.empty() ? 1024 : slots.size() * 2); }

}  // namespace syncbisim::statespace::detail
