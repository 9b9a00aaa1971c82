#include "checker/part_table.h"

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

// Eight words below 128 to eight bytes, and back. GCC does not vectorize the plain loops at -O2;
// SSE2 (every x86-64) packs and unpacks eight at once.
void narrow8(std::uint8_t* out, const std::uint32_t* w) {
#ifdef __SSE2__
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 4));
  const __m128i halves = _mm_packs_epi32(lo, hi);  // every word < 128: no saturation
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_packus_epi16(halves, halves));
#else
  for (std::size_t j = 0; j < 8; ++j) out[j] = static_cast<std::uint8_t>(w[j]);
#endif
}

void widen8(std::uint32_t* w, const std::uint8_t* b) {
#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128();
  const __m128i halves = _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b)), zero);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(w), _mm_unpacklo_epi16(halves, zero));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(w + 4), _mm_unpackhi_epi16(halves, zero));
#else
  for (std::size_t j = 0; j < 8; ++j) w[j] = b[j];
#endif
}

// Almost every word is below 128 (one byte): eight such words at a time take a test of their OR
// and one narrow8() (SSE2 above: GCC does not vectorize that copy itself at -O2), instead of eight
// trips through leb128().
std::uint8_t* encode_words(std::uint8_t* out, const std::uint32_t* w, std::size_t n) {
  std::size_t k = 0;
  while (k + 8 <= n) {
    std::uint32_t any = 0;
    for (std::size_t j = 0; j < 8; ++j) any |= w[k + j];
    if (any < 0x80) {
      narrow8(out, w + k);
      out += 8;
    } else {
      for (std::size_t j = 0; j < 8; ++j) out = leb128(out, w[k + j]);
    }
    k += 8;
  }
  for (; k < n; ++k) out = leb128(out, w[k]);
  return out;
}

// The reverse: eight bytes without a continuation bit are eight words.
std::uint32_t* decode_words(std::uint32_t* w, const std::uint8_t* b, const std::uint8_t* end) {
  while (b < end) {
    if (end - b >= 8) {
      std::uint64_t eight;
      std::memcpy(&eight, b, 8);
      if ((eight & 0x8080808080808080ULL) == 0) {
        widen8(w, b);
        w += 8;
        b += 8;
        continue;
      }
    }
    std::uint32_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      const std::uint8_t byte = *b++;
      v |= static_cast<std::uint32_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    *w++ = v;
  }
  return w;
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

namespace {
// A slot holds an id + 1 (0 = empty) in its low half and the high half of the entry's hash in
// its high half: a probe that meets another entry is told apart by the slot alone, without a
// cache miss on the entry itself (measured: the tables' misses were a quarter of the time).
std::uint64_t slot_of(std::uint32_t id, std::uint64_t h) { return (h & 0xffffffff00000000ULL) | (id + 1ULL); }
std::uint32_t id_of(std::uint64_t slot) { return static_cast<std::uint32_t>(slot) - 1; }
bool same_hash(std::uint64_t slot, std::uint64_t h) { return ((slot ^ h) >> 32) == 0; }

// Both tables grow by doubling, placing entries again by the hash kept in their slots: the
// low bits of a position come from the kept high half, which fits every capacity below 2^32.
std::size_t position(std::uint64_t h, std::size_t mask) { return static_cast<std::size_t>(h >> 32) & mask; }

LargeArray<std::uint64_t> regrow(const LargeArray<std::uint64_t>& slots) {
  const std::size_t cap = slots.empty() ? 1024 : slots.size() * 2;
  LargeArray<std::uint64_t> fresh(cap, 0);
  for (const auto slot : slots) {
    if (slot == 0) continue;
    std::size_t i = position(slot, cap - 1);
    while (fresh[i] != 0) i = (i + 1) & (cap - 1);
    fresh[i] = slot;
  }
  return fresh;
}
}  // namespace

std::uint32_t PartTable::intern(const PartWords& words) {
  // At most five bytes a word; the scratch buffer only grows.
  if (scratch_.size() < words.size() * 5 + 8) scratch_.resize(words.size() * 10 + 16);
  std::uint8_t* end = encode_words(scratch_.data(), words.data(), words.size());
  const auto n = static_cast<std::size_t>(end - scratch_.data());
  if ((count() + 1) * 10 > slots_.size() * 7) slots_ = regrow(slots_);
  const std::uint64_t h = hash_bytes(scratch_.data(), n);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = position(h, mask);; i = (i + 1) & mask) {
    const std::uint64_t slot = slots_[i];
    if (slot == 0) {
      const auto id = static_cast<std::uint32_t>(count());
      arena_.insert(arena_.end(), scratch_.data(), end);
      offsets_.push_back(arena_.size());
      slots_[i] = slot_of(id, h);
      return id;
    }
    if (same_hash(slot, h) && equal(id_of(slot), scratch_.data(), n)) return id_of(slot);
  }
}

bool PartTable::equal(std::uint32_t id, const std::uint8_t* bytes, std::size_t n) const {
  return offsets_[id + 1] - offsets_[id] == n && std::memcmp(arena_.data() + offsets_[id], bytes, n) == 0;
}

void PartTable::read(std::uint32_t id, PartWords& out) const {
  const std::uint8_t* b = arena_.data() + offsets_[id];
  const std::uint8_t* end = arena_.data() + offsets_[id + 1];
  std::uint32_t* w = out.resize(static_cast<std::size_t>(end - b));  // at least a byte a word
  out.resize(static_cast<std::size_t>(decode_words(w, b, end) - w));
}

std::size_t PartTable::bytes() const {
  return arena_.capacity() + offsets_.capacity() * sizeof(std::uint64_t) + slots_.capacity() * sizeof(std::uint64_t);
}

std::uint64_t StateSet::hash(const std::uint32_t* t) const {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < width_; ++i) h = mix(h, t[i]);
  return h;
}

// A tuple is a handful of words: an inline loop beats a call to memcmp.
bool StateSet::same(const std::uint32_t* a, const std::uint32_t* b) const {
  for (std::size_t i = 0; i < width_; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

void StateSet::prefetch(std::uint64_t h) const {
  if (slots_.empty()) return;
#if defined(__GNUC__)
  __builtin_prefetch(slots_.data() + position(h, slots_.size() - 1));
#endif
}

std::pair<std::uint32_t, bool> StateSet::insert(const std::uint32_t* t, std::uint64_t h) {
  // A load factor of 0.8 at most: linear probing stays short with a good hash, and the slot
  // array is most of what a state costs besides its tuple.
  if ((count() + 1) * 5 > slots_.size() * 4) slots_ = regrow(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = position(h, mask);; i = (i + 1) & mask) {
    const std::uint64_t slot = slots_[i];
    if (slot == 0) {
      const auto id = static_cast<std::uint32_t>(count());
      tuples_.push(t);
      slots_[i] = slot_of(id, h);
      return {id, true};
    }
    if (same_hash(slot, h) && same(tuple(id_of(slot)), t)) return {id_of(slot), false};
  }
}

std::size_t StateSet::bytes() const { return tuples_.bytes() + slots_.capacity() * sizeof(std::uint64_t); }

}  // namespace syncbisim::checker
