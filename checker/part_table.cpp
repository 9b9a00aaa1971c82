#include "checker/part_table.h"

#include <cstring>

namespace syncbisim::checker {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

std::uint8_t* leb128(std::uint8_t* out, std::uint32_t v) {
  while (v >= 0x80) {
    *out++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<std::uint8_t>(v);
  return out;
}

std::uint64_t hash_bytes(const std::uint8_t* b, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, b + i, 8);
    h = mix(h, w);
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, b + i, n - i);
  return mix(h, tail);
}

}  // namespace

std::uint32_t PartTable::intern(const PartWords& words) {
  // At most five bytes a word; the scratch buffer only grows.
  if (scratch_.size() < words.size() * 5 + 8) scratch_.resize(words.size() * 10 + 16);
  std::uint8_t* end = scratch_.data();
  for (std::size_t k = 0; k < words.size(); ++k) end = leb128(end, words.data()[k]);
  const auto n = static_cast<std::size_t>(end - scratch_.data());
  if ((count() + 1) * 10 > slots_.size() * 7) grow();
  const std::uint64_t h = hash_bytes(scratch_.data(), n);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    if (slots_[i] == 0) {
      const auto id = static_cast<std::uint32_t>(count());
      arena_.insert(arena_.end(), scratch_.data(), end);
      offsets_.push_back(arena_.size());
      hashes_.push_back(static_cast<std::uint32_t>(h));
      slots_[i] = id + 1;
      return id;
    }
    const std::uint32_t id = slots_[i] - 1;
    if (hashes_[id] == static_cast<std::uint32_t>(h) && equal(id, scratch_.data(), n)) return id;
  }
}

bool PartTable::equal(std::uint32_t id, const std::uint8_t* bytes, std::size_t n) const {
  return offsets_[id + 1] - offsets_[id] == n && std::memcmp(arena_.data() + offsets_[id], bytes, n) == 0;
}

void PartTable::read(std::uint32_t id, PartWords& out) const {
  const std::uint8_t* b = arena_.data() + offsets_[id];
  const std::uint8_t* end = arena_.data() + offsets_[id + 1];
  std::uint32_t* w = out.resize(static_cast<std::size_t>(end - b));  // at least a byte a word
  std::uint32_t* const first = w;
  while (b < end) {
    std::uint32_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      const std::uint8_t byte = *b++;
      v |= static_cast<std::uint32_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    *w++ = v;
  }
  out.resize(static_cast<std::size_t>(w - first));
}

void PartTable::grow() {
  const std::size_t cap = slots_.empty() ? 1024 : slots_.size() * 2;
  std::vector<std::uint32_t> fresh(cap, 0);
  for (std::uint32_t id = 0; id < count(); ++id) {
    // The kept low 32 bits of the hash place the part as the full hash did (cap <= 2^32).
    std::size_t i = hashes_[id] & (cap - 1);
    while (fresh[i] != 0) i = (i + 1) & (cap - 1);
    fresh[i] = id + 1;
  }
  slots_ = std::move(fresh);
}

std::size_t PartTable::bytes() const {
  return arena_.capacity() + offsets_.capacity() * sizeof(std::uint64_t) + hashes_.capacity() * sizeof(std::uint32_t) +
         slots_.capacity() * sizeof(std::uint32_t);
}

std::uint64_t StateSet::hash(const std::uint32_t* t) const {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < width_; ++i) h = mix(h, t[i]);
  return h;
}

void StateSet::grow() {
  const std::size_t cap = slots_.empty() ? 1024 : slots_.size() * 2;
  std::vector<std::uint32_t> fresh(cap, 0);
  for (std::uint32_t id = 0; id < count(); ++id) {
    std::size_t i = hash(tuple(id)) & (cap - 1);
    while (fresh[i] != 0) i = (i + 1) & (cap - 1);
    fresh[i] = id + 1;
  }
  slots_ = std::move(fresh);
}

// A tuple is a handful of words: an inline loop beats a call to memcmp.
bool StateSet::same(const std::uint32_t* a, const std::uint32_t* b) const {
  for (std::size_t i = 0; i < width_; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

std::pair<std::uint32_t, bool> StateSet::insert(const std::uint32_t* t) {
  // A load factor of 0.8 at most: linear probing stays short with a good hash, and the slot
  // array is most of what a state costs besides its tuple.
  if ((count() + 1) * 5 > slots_.size() * 4) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash(t) & mask;; i = (i + 1) & mask) {
    if (slots_[i] == 0) {
      const auto id = static_cast<std::uint32_t>(count());
      tuples_.insert(tuples_.end(), t, t + width_);
      slots_[i] = id + 1;
      return {id, true};
    }
    const std::uint32_t id = slots_[i] - 1;
    if (same(tuple(id), t)) return {id, false};
  }
}

std::size_t StateSet::bytes() const {
  return tuples_.capacity() * sizeof(std::uint32_t) + slots_.capacity() * sizeof(std::uint32_t);
}

}  // namespace syncbisim::checker
