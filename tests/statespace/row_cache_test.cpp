// The tree stores' cache of recent halves (statespace/row_cache.h): a row put is found by
// its words and hash, a different row of the same entry is not taken for it, and a row put on an
// occupied entry replaces the one there.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>

#include "statespace/row_cache.h"

using syncbisim::statespace::RowCache;

TEST_CASE("row cache: a row put is found, another row in its entry is not, a later put replaces it") {
  RowCache cache(3);
  const std::array<std::uint32_t, 3> a{1, 2, 3}, b{1, 2, 4};
  const std::uint64_t h = 77, same_entry = h + (std::uint64_t{1} << RowCache::kLog2Entries);
  CHECK(cache.find(a.data(), h) == RowCache::kNone);  // empty at first
  cache.put(a.data(), h, 10);
  CHECK(cache.find(a.data(), h) == 10);
  CHECK(cache.find(a.data(), same_entry) == 10);  // the entry is the hash's low bits
  CHECK(cache.find(b.data(), h) == RowCache::kNone);
  CHECK(cache.find(a.data(), h + 1) == RowCache::kNone);  // another entry
  cache.put(b.data(), same_entry, 11);
  CHECK(cache.find(b.data(), h) == 11);
  CHECK(cache.find(a.data(), h) == RowCache::kNone);
  CHECK(cache.bytes() == (std::size_t{1} << RowCache::kLog2Entries) * 4 * sizeof(std::uint32_t));
}

TEST_CASE("row cache: rows of one word are cached, a cache of width 0 takes no memory") {
  RowCache one(1);
  const std::uint32_t a = 5, b = 6;
  one.put(&a, 3, 1);
  CHECK(one.find(&a, 3) == 1);
  CHECK(one.find(&b, 3) == RowCache::kNone);
  CHECK(RowCache(0).bytes() == 0);
  CHECK(RowCache().bytes() == 0);
}
