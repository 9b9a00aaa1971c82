#pragma once
// Internal to the state store: an allocator for its large arrays (hash slots, tuples, part bytes)
// that asks Linux for transparent huge pages. The store probes those arrays at random; with 4 KiB
// pages nearly every probe of a table larger than a few megabytes also misses the TLB. Where the
// kernel's transparent huge pages are set to "madvise" (Debian's default) nothing is backed by
// huge pages unless asked. Blocks below 2 MiB, and other systems, use plain operator new.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace syncbisim::statespace::detail {

// What the store keeps in memory from HugePageAllocator: values copied in as bytes, never
// constructed or destroyed there.
template <class T>
concept RawMemory = std::is_trivially_copyable_v<T>;

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHuge = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
#ifdef __linux__
    if (bytes >= kHuge) {
      const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
      void* p = std::aligned_alloc(kHuge, rounded);
      if (!p) throw std::bad_alloc();
      madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
      return static_cast<T*>(p);
    }
#endif
    return static_cast<T*>(::operator new(bytes));
  }

  void deallocate(T* p, std::size_t n) {
#ifdef __linux__
    if (n * sizeof(T) >= kHuge) {
      std::free(p);
      return;
    }
#endif
    ::operator delete(p);
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace syncbisim::statespace::detail
