#pragma once
// Internal to the threaded search: rows of a fixed number of values by index, in chunks of 2^17
// rows that are allocated when a thread first reserves an index in them and never move. Several
// threads may write rows of indices they reserved while others read rows whose writing a lock or
// a barrier ordered before the read. Indices may leave holes (a thread's unused reservations).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "statespace/detail/huge_pages.h"

namespace syncbisim::statespace::detail {

template <RawMemory T>  // rows are never constructed
class ChunkedRows {
 public:
  static constexpr unsigned kLog2Rows = 17;
  static constexpr std::size_t kRows = std::size_t{1} << kLog2Rows;
  static constexpr std::size_t kMaxChunks = (std::size_t{1} << 32) / kRows;  // 32-bit indices

  explicit ChunkedRows(std::size_t width) : width_(width), chunks_(new std::atomic<T*>[kMaxChunks]) {
    for (std::size_t c = 0; c < kMaxChunks; ++c) chunks_[c].store(nullptr, std::memory_order_relaxed);
  }
  ChunkedRows(const ChunkedRows&) = delete;
  ChunkedRows& operator=(const ChunkedRows&) = delete;
  ~ChunkedRows() {
    for (std::size_t c = 0; c < kMaxChunks; ++c)
      if (T* p = chunks_[c].load(std::memory_order_relaxed)) HugePageAllocator<T>{}.deallocate(p, kRows * width_);
  }

  // Makes sure the chunk of row i exists (any thread; the first to get there allocates it).
  void ensure(std::size_t i) {
    auto& slot = chunks_[i >> kLog2Rows];
    if (slot.load(std::memory_order_acquire)) return;
    T* fresh = HugePageAllocator<T>{}.allocate(kRows * width_);
    T* expected = nullptr;
    if (slot.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) {
      allocated_.fetch_add(1, std::memory_order_relaxed);
    } else {
      HugePageAllocator<T>{}.deallocate(fresh, kRows * width_);
    }
  }
  T* row(std::size_t i) const {
    return chunks_[i >> kLog2Rows].load(std::memory_order_relaxed) + (i & (kRows - 1)) * width_;
  }
  std::size_t width() const { return width_; }
  std::size_t bytes() const {
    return allocated_.load(std::memory_order_relaxed) * kRows * width_ * sizeof(T) + kMaxChunks * sizeof(T*);
  }

 private:
  std::size_t width_;
  std::unique_ptr<std::atomic<T*>[]> chunks_;
  std::atomic<std::size_t> allocated_{0};
};

}  // namespace syncbisim::statespace::detail
