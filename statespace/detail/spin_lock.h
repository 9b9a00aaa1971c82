#pragma once
// Internal to the state store: a lock for the short critical sections of the shared tables
// (a probe and at most one append). Under two threads and dozens of shards it is almost never
// contended, and taking an uncontended std::mutex costs about as much as the probe it guards.
#include <atomic>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace syncbisim::statespace::detail {

class SpinLock {
 public:
  void lock() {
    while (flag_.exchange(true, std::memory_order_acquire))
      while (flag_.load(std::memory_order_relaxed)) pause();
  }
  void unlock() { flag_.store(false, std::memory_order_release); }

 private:
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  std::atomic<bool> flag_{false};
};

// Holds `lock` for a scope when `take` (a table used by one thread takes no lock).
class MaybeLocked {
 public:
  MaybeLocked(SpinLock& lock, bool take) : lock_(take ? &lock : nullptr) {
    if (lock_) lock_->lock();
  }
  ~MaybeLocked() {
    if (lock_) lock_->unlock();
  }
  MaybeLocked(const MaybeLocked&) = delete;
  MaybeLocked& operator=(const MaybeLocked&) = delete;

 private:
  SpinLock* lock_;
};

}  // namespace syncbisim::statespace::detail
