#include "statespace/shared_halves.h"

#include <algorithm>

#include "statespace/detail/hash_slots.h"

namespace syncbisim::statespace {

SharedHalves::SharedHalves(std::size_t width, unsigned threads)
    : width_(width), mid_(width <= 1 ? width : (width + 1) / 2), table_(threads) {}

SharedHalves::Cache::Cache(const SharedHalves& halves) {
  for (unsigned k = 0; k < 2; ++k) {
    const std::size_t n = halves.hi(k) - halves.lo(k);
    of_[k] = RowCache(n > 1 ? n : 0);  // a half of one word is its own id (fold())
  }
}

std::size_t SharedHalves::Cache::bytes() const { return of_[0].bytes() + of_[1].bytes(); }

void SharedHalves::fold(const std::uint32_t* tuple, std::uint32_t* root, Cache& cache) {
  for (unsigned k = 0; k < 2; ++k) {
    const std::size_t n = hi(k) - lo(k);
    const std::uint32_t* words = tuple + lo(k);
    if (n <= 1) {
      root[k] = n == 1 ? words[0] : 0;
      continue;
    }
    const std::uint64_t h = detail::hash_words(words, n);
    root[k] = cache.of_[k].find(words, h);
    if (root[k] != RowCache::kNone) continue;
    std::copy(words, words + n, cache.words_.resize(n));
    root[k] = table_.intern(cache.words_);
    cache.of_[k].put(words, h, root[k]);
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
    cache.of_[k].put(words, detail::hash_words(words, n), root[k]);
  }
}

}  // namespace syncbisim::statespace
