#include "checker/tree_states.h"

#include <bit>
#include <cassert>
#include <stdexcept>

namespace syncbisim::checker {

namespace {
constexpr std::size_t kFirstSlots = 1024;
// Full at 85%; grown by half, a table is between 57% and 85% full. Linear probing at 85% looks at
// about 4 slots for a pair it holds and 22 (two cache lines) for one it does not; the hash bits
// in the slot spare reading the pairs of nearly all of them.
constexpr std::size_t kFullNum = 17, kFullDen = 20;
}  // namespace

std::uint64_t PairTable::hash(std::uint64_t pair) {
  std::uint64_t h = pair * 0x9e3779b97f4a7c15ULL;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

void PairTable::prefetch(std::uint64_t h) const {
  if (slots_.empty()) return;
#if defined(__GNUC__)
  __builtin_prefetch(slots_.data() + position(h));
#endif
}

std::pair<std::uint32_t, bool> PairTable::insert(std::uint64_t pair, std::uint64_t h) {
  if ((count() + 1) * kFullDen > slots_.size() * kFullNum) grow();
  const std::size_t cap = slots_.size();
  const std::uint32_t tag = static_cast<std::uint32_t>(h) & ~id_mask_;
  for (std::size_t i = position(h);;) {
    const std::uint32_t slot = slots_[i];
    if (slot == 0) {
      const auto id = static_cast<std::uint32_t>(count());
      pairs_.push_back(pair);
      slots_[i] = tag | (id + 1);
      return {id, true};
    }
    if ((slot & ~id_mask_) == tag) {
      const std::uint32_t id = (slot & id_mask_) - 1;
      if (pairs_[id] == pair) return {id, false};
    }
    if (++i == cap) i = 0;
  }
}

void PairTable::grow() {
  const std::size_t cap = slots_.empty() ? kFirstSlots : slots_.size() + slots_.size() / 2;
  if (cap >= (std::size_t{1} << 32)) throw std::length_error("pair table: more than 2^32 slots");
  // id + 1 <= count < cap: bit_width(cap) bits hold it; the others keep hash bits.
  const unsigned id_bits = static_cast<unsigned>(std::bit_width(cap));
  id_mask_ = id_bits >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << id_bits) - 1;
  slots_ = LargeArray<std::uint32_t>();  // the old slots are rebuilt from the pairs
  slots_.assign(cap, 0);
  for (std::uint32_t id = 0; id < count(); ++id) {
    const std::uint64_t h = hash(pairs_[id]);
    std::size_t i = position(h);
    while (slots_[i] != 0)
      if (++i == cap) i = 0;
    slots_[i] = (static_cast<std::uint32_t>(h) & ~id_mask_) | (id + 1);
  }
}

std::size_t PairTable::bytes() const { return pairs_.bytes() + slots_.capacity() * sizeof(std::uint32_t); }

TreeStates::TreeStates(std::size_t width) : width_(width), last_(width) {
  if (width < 2) {
    // One word is its own pair with a zero: the root is then (word, 0).
    shape_.push_back(Node{~std::int32_t{0}, INT32_MIN, 0, width});
  } else {
    build(0, width);
  }
  nodes_.resize(shape_.size());
  last_ids_.resize(shape_.size());
}

std::int32_t TreeStates::build(std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return ~static_cast<std::int32_t>(lo);
  // The left half takes the larger share: with the global part last, it sits high in the tree.
  const std::size_t mid = lo + (hi - lo + 1) / 2;
  const std::int32_t left = build(lo, mid);
  const std::int32_t right = build(mid, hi);
  shape_.push_back(Node{left, right, lo, hi});
  return static_cast<std::int32_t>(shape_.size() - 1);
}

std::uint64_t TreeStates::root_of(const std::uint32_t* tuple) {
  // Post-order: a node's children come before it. A node whose children have the values they had
  // in the last tuple has the id it had then.
  std::uint64_t root = 0;
  bool same[64];  // per node: equal to the last tuple's
  assert(shape_.size() <= 64);
  for (std::size_t j = 0; j < shape_.size(); ++j) {
    const Node& n = shape_[j];
    auto value = [&](std::int32_t c, bool& unchanged) -> std::uint32_t {
      if (c == INT32_MIN) return 0;
      if (c >= 0) {
        unchanged = unchanged && same[c];
        return last_ids_[static_cast<std::size_t>(c)];
      }
      const auto w = static_cast<std::size_t>(~c);
      unchanged = unchanged && have_last_ && last_[w] == tuple[w];
      return tuple[w];
    };
    bool unchanged = have_last_;
    const std::uint32_t a = value(n.left, unchanged);
    const std::uint32_t b = value(n.right, unchanged);
    const std::uint64_t pair = std::uint64_t{a} | std::uint64_t{b} << 32;
    same[j] = unchanged;
    if (j + 1 == shape_.size()) {
      root = pair;
    } else if (!unchanged) {
      last_ids_[j] = nodes_[j].insert(pair).first;
    }
  }
  for (std::size_t w = 0; w < width_; ++w) last_[w] = tuple[w];
  have_last_ = true;
  return root;
}

void TreeStates::unfold(std::int32_t child, std::uint32_t value, std::uint32_t* out) const {
  if (child == INT32_MIN) return;
  if (child < 0) {
    out[static_cast<std::size_t>(~child)] = value;
    return;
  }
  const auto j = static_cast<std::size_t>(child);
  const std::uint64_t pair = nodes_[j].pair(value);
  unfold(shape_[j].left, static_cast<std::uint32_t>(pair), out);
  unfold(shape_[j].right, static_cast<std::uint32_t>(pair >> 32), out);
}

void TreeStates::tuple(std::uint32_t id, std::uint32_t* out) const {
  unfold(static_cast<std::int32_t>(shape_.size() - 1), id, out);
}

std::size_t TreeStates::bytes() const {
  std::size_t b = 0;
  for (const auto& n : nodes_) b += n.bytes();
  return b;
}

std::vector<std::size_t> TreeStates::node_counts() const {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j + 1 < nodes_.size(); ++j) out.push_back(nodes_[j].count());
  return out;
}

}  // namespace syncbisim::checker
