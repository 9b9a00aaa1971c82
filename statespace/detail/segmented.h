#pragma once
// Internal to the state store: an array that grows without ever moving what it holds, so one
// thread may read an element while another appends (the reader must have learnt the element's
// index through a lock or a barrier that ordered the write before it). Segment s holds
// kBase << s elements: 40 segment pointers address more than any search stores, growth never
// copies, and, as a doubling vector, at most half of the last segment is slack.
#include <bit>
#include <cstddef>
#include <cstdint>

#include "statespace/detail/huge_pages.h"

namespace syncbisim::statespace::detail {

template <RawMemory T>  // elements are never constructed
class Segmented {
 public:
  Segmented() = default;
  Segmented(const Segmented&) = delete;
  Segmented& operator=(const Segmented&) = delete;
  ~Segmented() {
    for (unsigned s = 0; s < kSegments; ++s)
      if (segs_[s]) HugePageAllocator<T>{}.deallocate(segs_[s], capacity_of(s));
  }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return *at(i); }
  const T& operator[](std::size_t i) const { return *at(i); }
  // The element at i and, for push_run()'s runs, the n - 1 after it.
  T* at(std::size_t i) const {
    const std::size_t q = (i >> kLog2Base) + 1;
    const unsigned s = static_cast<unsigned>(std::bit_width(q)) - 1;
    return segs_[s] + (i - (((std::size_t{1} << s) - 1) << kLog2Base));
  }
  // Room for one more element; its index.
  std::size_t push() { return push_run(1); }
  // Room for n elements side by side in one segment (skipping the rest of the current one if
  // they do not fit there); the index of the first.
  std::size_t push_run(std::size_t n) {
    for (;;) {
      const unsigned s = segment_of(size_);
      const std::size_t end = start_of(s + 1);
      if (!segs_[s]) segs_[s] = HugePageAllocator<T>{}.allocate(capacity_of(s));
      if (size_ + n <= end) {
        const std::size_t first = size_;
        size_ += n;
        return first;
      }
      size_ = end;  // a run too long for any segment is not asked for (parts are short)
    }
  }
  std::size_t bytes() const {
    std::size_t b = 0;
    for (unsigned s = 0; s < kSegments; ++s)
      if (segs_[s]) b += capacity_of(s) * sizeof(T);
    return b;
  }

 private:
  static constexpr unsigned kLog2Base = 10;
  static constexpr unsigned kSegments = 40;
  static unsigned segment_of(std::size_t i) { return static_cast<unsigned>(std::bit_width((i >> kLog2Base) + 1)) - 1; }
  static std::size_t start_of(unsigned s) { return ((std::size_t{1} << s) - 1) << kLog2Base; }
  static std::size_t capacity_of(unsigned s) { return std::size_t{1} << (s + kLog2Base); }

  T* segs_[kSegments] = {};
  // Apart from the segments' pointers: a shared part table's readers read those while a writer
  // appends (see PartTable::Shard).
  alignas(64) std::size_t size_ = 0;
};

}  // namespace syncbisim::statespace::detail
