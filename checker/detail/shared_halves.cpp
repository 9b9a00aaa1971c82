#include "checker/detail/shared_halves.h"

#include <algorithm>

#include "checker/detail/hash_slots.h"

namespace syncbisim::checker::detail {

namespace {
// 4,096 entries of a few words a half: a thread's cache stays in its second-level cache.
constexpr std::size_t kCacheLog2 = 12;
constexpr std::uint32_t kEmpty = ~std::uint32_t{0};

bool same_words(const std::uint32_t* a, const std::uint32_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
}  // namespace

SharedHalves::SharedHalves(std::size_t width) : width_(width), mid_(width <= 1 ? width : (width + 1) / 2) {}

SharedHalves::Cache::Cache(const SharedHalves& halves) {
  for (unsigned k = 0; k < 2; ++k) {
    const std::size_t n = halves.hi(k) - halves.lo(k);
    if (n > 1) entries_[k].assign((std::size_t{1} << kCacheLog2) * (n + 1), kEmpty);
  }
}

std::size_t SharedHalves::Cache::bytes() const {
  return (entries_[0].capacity() + entries_[1].capacity()) * sizeof(std::uint32_t);
}

std::uint32_t* SharedHalves::entry(Cache& cache, unsigned k, const std::uint32_t* words, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < n; ++i) h = mix(h, words[i]);
  const std::size_t at = static_cast<std::size_t>(h) & ((std::size_t{1} << kCacheLog2) - 1);
  return cache.entries_[k].data() + at * (n + 1);
}

void SharedHalves::fold(const std::uint32_t* tuple, std::uint32_t* root, Cache& cache) {
  for (unsigned k = 0; k < 2; ++k) {
    const std::size_t n = hi(k) - lo(k);
    const std::uint32_t* words = tuple + lo(k);
    if (n <= 1) {
      root[k] = n == 1 ? words[0] : 0;
      continue;
    }
    std::uint32_t* e = entry(cache, k, words, n);
    if (e[n] == kEmpty || !same_words(e, words, n)) {
      std::copy(words, words + n, cache.words_.resize(n));
      std::copy(words, words + n, e);
      e[n] = table_.intern(cache.words_);
    }
    root[k] = e[n];
  }
}

void SharedHalves::unfold(const std::uint32_t* root, std::uint32_t* tuple, Cache& cache) const {
  for (unsigned k = 0; k < 2; ++k) {
    const std::size_t n = hi(k) - lo(k);
    if (n <= 1) {
      if (n == 1) tuple[lo(k)] = root[k];
      continue;
    }
    table_.read(root[k], cache.words_);
    const std::uint32_t* words = cache.words_.data();
    std::copy(words, words + n, tuple + lo(k));
    // The successors of this state keep this half mostly: fold() finds it in the cache.
    std::uint32_t* e = entry(cache, k, words, n);
    std::copy(words, words + n, e);
    e[n] = root[k];
  }
}

}  // namespace syncbisim::checker::detail
