#pragma once
// Internal to the state store: rows of a fixed number of values (a state's tuple of part ids,
// its parent), kept in chunks of 2^18 rows. A vector that doubles holds up to twice what it
// needs and copies everything at each doubling; at tens of millions of states that slack was a
// third of the bytes per state. Chunks after the first are allocated at their full size; the
// first grows as a vector does, so a small search stays small.
#include <cstddef>
#include <vector>

#include "statespace/detail/huge_pages.h"

namespace syncbisim::statespace::detail {

template <class T>
class RowStore {
 public:
  explicit RowStore(std::size_t width) : width_(width) {}

  std::size_t size() const { return rows_; }
  const T* row(std::size_t i) const { return chunks_[i >> kLog2].data() + (i & kMask) * width_; }
  const T& operator[](std::size_t i) const { return *row(i); }  // for rows of one value
  void push(const T* values) {
    if (chunks_.empty() || chunks_.back().size() == kRows * width_) {
      chunks_.emplace_back();
      if (chunks_.size() > 1) chunks_.back().reserve(kRows * width_);
    }
    chunks_.back().insert(chunks_.back().end(), values, values + width_);
    ++rows_;
  }
  void push_back(const T& value) { push(&value); }  // for rows of one value
  std::size_t bytes() const {
    std::size_t b = chunks_.capacity() * sizeof(Chunk);
    for (const auto& c : chunks_) b += c.capacity() * sizeof(T);
    return b;
  }

 private:
  using Chunk = std::vector<T, HugePageAllocator<T>>;
  static constexpr unsigned kLog2 = 18;
  static constexpr std::size_t kRows = std::size_t{1} << kLog2;
  static constexpr std::size_t kMask = kRows - 1;

  std::size_t width_;
  std::size_t rows_ = 0;
  std::vector<Chunk> chunks_;
};

}  // namespace syncbisim::statespace::detail
