#include "checker/chunk_table.h"

#include <algorithm>
#include <cstring>

namespace syncbisim::checker {

std::uint64_t ChunkTable::hash(const std::uint32_t* w, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= w[i];
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  return h;
}

void ChunkTable::grow() {
  const std::size_t cap = slots_.empty() ? 1024 : slots_.size() * 2;
  std::vector<std::uint32_t> fresh(cap, 0);
  const std::size_t mask = cap - 1;
  for (std::uint32_t id = 0; id < count(); ++id) {
    std::size_t i = hash(data(id), size(id)) & mask;
    while (fresh[i] != 0) i = (i + 1) & mask;
    fresh[i] = id + 1;
  }
  slots_ = std::move(fresh);
}

std::pair<std::uint32_t, bool> ChunkTable::intern(const std::uint32_t* words, std::size_t n) {
  if ((count() + 1) * 10 > slots_.size() * 7) grow();
  const std::uint64_t h = hash(words, n);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const std::uint32_t slot = slots_[i];
    if (slot == 0) {
      const auto id = static_cast<std::uint32_t>(count());
      arena_.insert(arena_.end(), words, words + n);
      offsets_.push_back(arena_.size());
      hashes_.push_back(static_cast<std::uint32_t>(h));
      slots_[i] = id + 1;
      return {id, true};
    }
    const std::uint32_t id = slot - 1;
    if (hashes_[id] == static_cast<std::uint32_t>(h) && size(id) == n &&
        std::memcmp(data(id), words, n * sizeof(std::uint32_t)) == 0)
      return {id, false};
  }
}

std::size_t ChunkTable::bytes() const {
  return arena_.capacity() * sizeof(std::uint32_t) + offsets_.capacity() * sizeof(std::uint64_t) +
         slots_.capacity() * sizeof(std::uint32_t) + hashes_.capacity() * sizeof(std::uint32_t);
}

}  // namespace syncbisim::checker
