#pragma once
// For the one-thread search (checker/detail/exhaustive.h): the parent of every stored state (docs/checker.md "State
// storage"), in about 2 bits a state instead of a 4-byte id. States are numbered in discovery
// order and expanded in that order, so a state's parent (the state whose expansion found it) is
// never less than the parent of the state found before it. The parents are then a
// non-decreasing sequence, kept as its differences in unary: for each state after the first,
// as many 0 bits as its parent lies past the previous state's, then a 1 bit. There are as many
// 1 bits as states and at most as many 0 bits as states expanded. A parent is read back (only
// for a trace) from the nearest of the marks kept every kMarkEvery states, by counting bits.
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace syncbisim::statespace {

class ParentLog {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;  // the first state's parent

  std::size_t size() const { return size_; }
  // The parent of the next state: kNone for the first, then never less than the last one.
  void push_back(std::uint32_t parent) {
    if (size_++ == 0) {
      assert(parent == kNone);
      return;
    }
    assert(parent >= last_);
    const std::size_t k = size_ - 1;  // this state's number
    if ((k - 1) % kMarkEvery == 0) marks_.push_back(Mark{bits_, last_});
    for (std::uint32_t d = parent - last_; d > 0; --d) put(false);
    put(true);
    last_ = parent;
  }
  std::uint32_t operator[](std::size_t k) const {
    if (k == 0) return kNone;
    const Mark& m = marks_[(k - 1) / kMarkEvery];
    std::size_t ones = (k - 1) % kMarkEvery + 1;  // the 1 bit of state k is this many from the mark
    std::uint32_t parent = m.parent;
    std::size_t bit = m.bit;
    // Word by word while the wanted 1 bit lies past the word; then bit by bit.
    for (;;) {
      const std::size_t w = bit / 64, offset = bit % 64;
      const std::uint64_t word = words_[w] >> offset;
      const std::size_t in_word = 64 - offset;
      const std::size_t limit = bits_ - bit < in_word ? bits_ - bit : in_word;
      const std::uint64_t valid = limit == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << limit) - 1;
      const auto count = static_cast<std::size_t>(std::popcount(word & valid));
      if (count < ones) {
        ones -= count;
        parent += static_cast<std::uint32_t>(limit - count);
        bit += limit;
        continue;
      }
      for (std::size_t b = 0;; ++b) {
        if ((word >> b) & 1U) {
          if (--ones == 0) return parent;
        } else {
          ++parent;
        }
      }
    }
  }
  std::size_t bytes() const { return words_.capacity() * sizeof(std::uint64_t) + marks_.capacity() * sizeof(Mark); }

 private:
  static constexpr std::size_t kMarkEvery = 1024;
  struct Mark {
    std::size_t bit;       // where the bits of state 1 + kMarkEvery * i begin
    std::uint32_t parent;  // the parent of the state before it
  };
  void put(bool one) {
    if (bits_ % 64 == 0) words_.push_back(0);
    if (one) words_.back() |= std::uint64_t{1} << (bits_ % 64);
    ++bits_;
  }

  std::vector<std::uint64_t> words_;
  std::size_t bits_ = 0;
  std::vector<Mark> marks_;
  std::size_t size_ = 0;
  std::uint32_t last_ = 0;
};

}  // namespace syncbisim::statespace
