#include "statespace/tree_states.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "statespace/detail/hash_slots.h"

namespace syncbisim::statespace {

std::uint64_t RowTable::hash(const std::uint32_t* row) const { return detail::hash_words(row, width_); }

std::pair<std::uint32_t, bool> RowTable::insert(const std::uint32_t* row, std::uint64_t h) {
  if (index_.full(count() + 1)) index_.grow(count(), [&](std::uint32_t id) { return hash(rows_.row(id)); });
  const auto found = index_.find_or_add(h, static_cast<std::uint32_t>(count()), [&](std::uint32_t id) {
    const std::uint32_t* r = rows_.row(id);
    for (std::size_t i = 0; i < width_; ++i)
      if (r[i] != row[i]) return false;
    return true;
  });
  if (found.second) rows_.push(row);
  return found;
}

void PackedPairs::put(Chunk& c, std::size_t row, std::uint64_t pair) {
  const unsigned width = c.left_bits + c.right_bits;
  const std::uint64_t v = (pair & 0xffffffffULL) | (pair >> 32) << c.left_bits;  // width <= 64 bits
  const std::size_t bit = row * width;
  const std::size_t word = bit >> 6;
  const unsigned off = static_cast<unsigned>(bit & 63);
  const std::size_t need = (bit + width) / 64 + 1;  // get() reads a word even at width 0
  if (c.words.size() < need) c.words.resize(need, 0);
  if (width == 0) return;
  c.words[word] |= v << off;
  if (off + width > 64) c.words[word + 1] |= v >> (64 - off);
}

void PackedPairs::push(std::uint64_t pair) {
  const auto left = static_cast<unsigned>(std::bit_width(pair & 0xffffffffULL));
  const auto right = static_cast<unsigned>(std::bit_width(pair >> 32));
  if (chunks_.empty() || (rows_ & kMask) == 0) {
    // A new chunk starts at the widths of the last one (ids only grow).
    Chunk c;
    if (!chunks_.empty()) {
      c.left_bits = chunks_.back().left_bits;
      c.right_bits = chunks_.back().right_bits;
    }
    chunks_.push_back(std::move(c));
  }
  Chunk& c = chunks_.back();
  const std::size_t row = rows_ & kMask;
  if (left > c.left_bits || right > c.right_bits) {
    // Repack the chunk's rows at the wider widths (at most 64 times a chunk, mostly never).
    Chunk wider;
    wider.left_bits = std::max(left, c.left_bits);
    wider.right_bits = std::max(right, c.right_bits);
    wider.words.reserve(kRows * (wider.left_bits + wider.right_bits) / 64 + 1);
    const std::size_t base = rows_ & ~kMask;
    for (std::size_t r = 0; r < row; ++r) put(wider, r, get(base + r));
    c = std::move(wider);
  } else if (c.words.capacity() == 0) {
    c.words.reserve(kRows * (c.left_bits + c.right_bits) / 64 + 1);
  }
  put(c, row, pair);
  ++rows_;
}

void PackedPairs::prefetch(std::size_t i) const {
#if defined(__GNUC__)
  const Chunk& c = chunks_[i >> kLog2];
  __builtin_prefetch(c.words.data() + (((i & kMask) * (c.left_bits + c.right_bits)) >> 6));
#endif
}

std::size_t PackedPairs::bytes() const {
  std::size_t b = chunks_.capacity() * sizeof(Chunk);
  for (const auto& c : chunks_) b += c.words.capacity() * sizeof(std::uint64_t);
  return b;
}

TreeStates::TreeStates(std::size_t width) : width_(width), decoded_(width) {
  if (width <= 2) return;
  // The left half takes the larger share when the width is odd.
  const std::size_t mid = (width + 1) / 2;
  for (const auto& [lo, hi] : {std::pair{std::size_t{0}, mid}, std::pair{mid, width}}) {
    halves_.push_back(Half{lo, hi, RowTable(hi - lo), RowCache(hi - lo > 1 ? hi - lo : 0)});
  }
}

std::uint64_t TreeStates::hash(std::uint64_t root) {
  std::uint64_t h = root * 0x9e3779b97f4a7c15ULL;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

std::uint32_t TreeStates::intern(Half& h, const std::uint32_t* words) {
  const std::size_t n = h.hi - h.lo;
  if (n == 1) return words[0];
  // Most successors keep one half of the state expanded, the one decoded last: three words
  // compared in the first-level cache instead of a hash and a look in the half's cache.
  if (h.decoded != RowCache::kNone && std::equal(words, words + n, decoded_.data() + h.lo)) return h.decoded;
  const std::uint64_t hash = h.table.hash(words);
  if (const std::uint32_t id = h.cache.find(words, hash); id != RowCache::kNone) return id;
  const std::uint32_t id = h.table.insert(words, hash).first;
  h.cache.put(words, hash, id);
  return id;
}

std::uint64_t TreeStates::root_of(const std::uint32_t* tuple) {
  if (width_ == 1) return tuple[0];
  if (width_ == 2) return tuple[0] | std::uint64_t{tuple[1]} << 32;
  const std::uint32_t left = intern(halves_[0], tuple + halves_[0].lo);
  const std::uint32_t right = intern(halves_[1], tuple + halves_[1].lo);
  return left | std::uint64_t{right} << 32;
}

std::pair<std::uint32_t, bool> TreeStates::insert_root(std::uint64_t root, std::uint64_t h) {
  if (roots_index_.full(count() + 1))
    roots_index_.grow(count(), [&](std::uint32_t id) { return hash(roots_.get(id)); });
  const auto found = roots_index_.find_or_add(h, static_cast<std::uint32_t>(count()),
                                              [&](std::uint32_t id) { return roots_.get(id) == root; });
  if (found.second) roots_.push(root);
  return found;
}

void TreeStates::tuple(std::uint32_t id, std::uint32_t* out) const {
  const std::uint64_t root = roots_.get(id);
  const auto left = static_cast<std::uint32_t>(root), right = static_cast<std::uint32_t>(root >> 32);
  if (width_ <= 2) {
    out[0] = left;
    if (width_ == 2) out[1] = right;
    return;
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const Half& h = halves_[k];
    const std::uint32_t hid = k == 0 ? left : right;
    if (h.hi - h.lo == 1) {
      out[h.lo] = hid;
      continue;
    }
    const std::uint32_t* row = h.table.row(hid);
    std::copy(row, row + (h.hi - h.lo), out + h.lo);
    std::copy(row, row + (h.hi - h.lo), decoded_.data() + h.lo);
    h.decoded = hid;
    h.cache.put(row, h.table.hash(row), hid);
  }
}

void TreeStates::prefetch_tuple(std::uint32_t id) const {
#if defined(__GNUC__)
  if (id >= count() || width_ <= 2) return;
  const std::uint64_t root = roots_.get(id);
  for (std::size_t k = 0; k < 2; ++k) {
    const Half& h = halves_[k];
    if (h.hi - h.lo > 1) __builtin_prefetch(h.table.row(static_cast<std::uint32_t>(k == 0 ? root : root >> 32)));
  }
#endif
}

std::size_t TreeStates::bytes() const {
  std::size_t b = roots_.bytes() + roots_index_.bytes();
  for (const auto& h : halves_) b += h.table.bytes() + h.cache.bytes();
  return b;
}

std::vector<std::size_t> TreeStates::half_counts() const {
  std::vector<std::size_t> out;
  for (const auto& h : halves_) out.push_back(h.table.count());
  return out;
}

}  // namespace syncbisim::statespace
