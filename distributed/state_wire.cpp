#include "distributed/state_wire.h"

#include <algorithm>

namespace syncbisim::distributed {

namespace {
// splitmix64's finalizer: every input bit reaches every output bit, so the owner (taken from
// the high bits) spreads states evenly even when parts differ in one low word.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

std::uint64_t get_varint(const std::uint8_t*& p) {
  std::uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    const std::uint8_t b = *p++;
    v |= std::uint64_t{b & 0x7fU} << shift;
    if (b < 0x80) return v;
  }
}

void StateWire::cover(std::uint32_t id) {
  std::vector<std::uint8_t> bytes;
  while (hash_.size() <= id) {
    const auto next = static_cast<std::uint32_t>(hash_.size());
    parts_.read(next, words_);
    std::uint64_t h = mix(words_.size() + 1);
    bytes.clear();
    put_varint(bytes, words_.size());
    for (std::size_t i = 0; i < words_.size(); ++i) {
      h = mix(h ^ words_.data()[i]);
      put_varint(bytes, words_.data()[i]);
    }
    hash_.push_back(h);
    arena_.insert(arena_.end(), bytes.begin(), bytes.end());
    offsets_.push_back(arena_.size());
  }
}

std::uint64_t StateWire::hash(const std::uint32_t* tuple) {
  std::uint64_t h = 0;
  for (std::size_t i = 0; i < codec_.parts(); ++i) {
    if (tuple[i] >= hash_.size()) cover(tuple[i]);
    h = mix(h + hash_[tuple[i]] + i);
  }
  return h;
}

// Each part: varint(id << 1 | new), and if new its words (as cover() wrote them).
void StateWire::write(const std::uint32_t* tuple, int to, std::vector<std::uint8_t>& out) {
  auto& sent = sent_[static_cast<std::size_t>(to)];
  for (std::size_t i = 0; i < codec_.parts(); ++i) {
    const std::uint32_t id = tuple[i];
    if (id >= sent.size()) sent.resize(std::max<std::size_t>(id + 1, sent.size() * 2));
    const bool fresh = !sent[id];
    put_varint(out, std::uint64_t{id} << 1 | (fresh ? 1U : 0U));
    if (!fresh) continue;
    sent[id] = true;
    if (id >= hash_.size()) cover(id);
    out.insert(out.end(), arena_.begin() + static_cast<std::ptrdiff_t>(offsets_[id]),
               arena_.begin() + static_cast<std::ptrdiff_t>(offsets_[id + 1]));
  }
}

void StateWire::read(const std::uint8_t*& p, int from, std::vector<std::uint32_t>& tuple) {
  auto& known = known_[static_cast<std::size_t>(from)];
  tuple.resize(codec_.parts());
  for (std::size_t i = 0; i < codec_.parts(); ++i) {
    const auto tag = get_varint(p);
    const auto theirs = static_cast<std::size_t>(tag >> 1);
    if ((tag & 1U) == 0) {
      tuple[i] = known[theirs];
      continue;
    }
    const auto n = get_varint(p);
    std::uint32_t* w = words_.resize(n);
    for (std::size_t k = 0; k < n; ++k) w[k] = static_cast<std::uint32_t>(get_varint(p));
    tuple[i] = parts_.intern(words_);
    if (theirs >= known.size()) known.resize(std::max<std::size_t>(theirs + 1, known.size() * 2));
    known[theirs] = tuple[i];
  }
}

std::size_t StateWire::bytes() const {
  std::size_t b =
      hash_.capacity() * sizeof(std::uint64_t) + offsets_.capacity() * sizeof(std::uint64_t) + arena_.capacity();
  for (const auto& s : sent_) b += s.capacity() / 8;
  for (const auto& k : known_) b += k.capacity() * sizeof(std::uint32_t);
  return b;
}

}  // namespace syncbisim::distributed
