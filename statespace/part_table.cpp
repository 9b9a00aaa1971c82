#include "statespace/part_table.h"

#include "statespace/detail/hash_slots.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <new>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace syncbisim::statespace {

namespace {

using detail::mix;

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

using detail::id_of;
using detail::position;
using detail::regrow;
using detail::same_hash;
using detail::slot_of;

namespace {
unsigned log2_shards_for(unsigned threads) {
  const std::size_t shards = std::min<std::size_t>(64, std::max<std::size_t>(1, std::bit_ceil(threads) / 2));
  return static_cast<unsigned>(std::countr_zero(shards));
}
}  // namespace

PartTable::PartTable(unsigned threads) : log2_shards_(log2_shards_for(threads)), shared_(threads > 1) {
  for (std::size_t i = 0; i < (std::size_t{1} << log2_shards_); ++i) shards_.push_back(std::make_unique<Shard>());
}

std::uint32_t PartTable::intern(const PartWords& words) {
  // At most five bytes a word; parts are short, so the bytes are built on the stack.
  std::uint8_t stack[1024];
  std::vector<std::uint8_t> heap;
  std::uint8_t* buf = stack;
  if (words.size() * 5 + 8 > sizeof stack) {
    heap.resize(words.size() * 5 + 8);
    buf = heap.data();
  }
  std::uint8_t* end = encode_words(buf, words.data(), words.size());
  const auto n = static_cast<std::size_t>(end - buf);
  const std::uint64_t h = hash_bytes(buf, n);
  // The shard from the low half of the hash; positions come from the high half.
  const auto shard = static_cast<std::uint32_t>(h) & ((1U << log2_shards_) - 1);
  Shard& s = *shards_[shard];
  const bool shared = shared_;
  // Shared: most parts are known, and are found without the lock (slots are stored with release,
  // after the bytes they point to; a table that grew is kept for lookups still reading it).
  if (shared)
    if (const detail::Slots* published = s.published.load(std::memory_order_acquire)) {
      const std::size_t mask = published->size() - 1;
      for (std::size_t i = position(h, mask);; i = (i + 1) & mask) {
        const std::uint64_t slot =
            std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>((*published)[i])).load(std::memory_order_acquire);
        if (slot == 0) break;
        if (same_hash(slot, h) && equal(s, id_of(slot), buf, n)) return id_of(slot) << log2_shards_ | shard;
      }
    }
  const detail::MaybeLocked guard(s.lock, shared);
  if ((s.count + 1) * 10 > s.slots->size() * 7) {
    auto grown = std::make_unique<detail::Slots>(regrow(*s.slots));
    if (shared) {
      s.published.store(grown.get(), std::memory_order_release);
      s.retired.push_back(std::move(s.slots));
    }
    s.slots = std::move(grown);
  }
  detail::Slots& slots = *s.slots;
  const std::size_t mask = slots.size() - 1;
  for (std::size_t i = position(h, mask);; i = (i + 1) & mask) {
    const std::uint64_t slot = slots[i];  // written under this lock only
    if (slot == 0) {
      const auto local = static_cast<std::uint32_t>(s.where.push());
      const std::size_t first = s.arena.push_run(n);
      std::memcpy(s.arena.at(first), buf, n);
      s.where[local] = std::uint64_t{first} << 24 | n;
      std::atomic_ref<std::uint64_t>(slots[i]).store(slot_of(local, h), std::memory_order_release);
      ++s.count;
      return local << log2_shards_ | shard;
    }
    if (same_hash(slot, h) && equal(s, id_of(slot), buf, n)) return id_of(slot) << log2_shards_ | shard;
  }
}

bool PartTable::equal(const Shard& s, std::uint32_t local, const std::uint8_t* bytes, std::size_t n) const {
  const std::uint64_t w = s.where[local];
  return (w & 0xffffff) == n && std::memcmp(s.arena.at(w >> 24), bytes, n) == 0;
}

void PartTable::read(std::uint32_t id, PartWords& out) const {
  const Shard& s = *shards_[id & ((1U << log2_shards_) - 1)];
  const std::uint64_t w = s.where[id >> log2_shards_];
  const std::uint8_t* b = s.arena.at(w >> 24);
  const std::uint8_t* end = b + (w & 0xffffff);
  std::uint32_t* words = out.resize(static_cast<std::size_t>(end - b));  // at least a byte a word
  out.resize(static_cast<std::size_t>(decode_words(words, b, end) - words));
}

std::size_t PartTable::count() const {
  std::size_t n = 0;
  for (const auto& s : shards_) n += s->count;
  return n;
}

std::size_t PartTable::bytes() const {
  std::size_t b = 0;
  for (const auto& s : shards_) {
    b += s->arena.bytes() + s->where.bytes() + s->slots->capacity() * sizeof(std::uint64_t);
    for (const auto& r : s->retired) b += r->capacity() * sizeof(std::uint64_t);
  }
  return b;
}

std::uint64_t StateSet::hash(const std::uint32_t* t) const { return detail::hash_words(t, width_); }

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
      // Ids are 32 bits and UINT32_MAX names no state (the parent log's kNone): past that the
      // search ends as for an allocation that fails (limit: memory), never with a wrapped id.
      if (count() >= UINT32_MAX) throw std::bad_alloc();
      const auto id = static_cast<std::uint32_t>(count());
      tuples_.push(t);
      slots_[i] = slot_of(id, h);
      return {id, true};
    }
    if (same_hash(slot, h) && same(tuple(id_of(slot)), t)) return {id_of(slot), false};
  }
}

std::size_t StateSet::bytes() const { return tuples_.bytes() + slots_.capacity() * sizeof(std::uint64_t); }

}  // namespace syncbisim::statespace
