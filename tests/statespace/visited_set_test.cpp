// The visited set of one thread or one rank (statespace/visited_set.h): flat and tree give the
// same dense ids in the same order; a key taken early and inserted later (as the one-thread search
// does, with other tuples interned in between) finds the same state as inserting the tuple at
// once; every state's tuple comes back.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "statespace/visited_set.h"

using namespace syncbisim;

namespace {

// Tuples like a search's: most differ from the one before in one or two parts.
std::vector<std::vector<std::uint32_t>> walk_of(std::size_t width, std::uint32_t seed, int n) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> t(width, 0);
  std::vector<std::vector<std::uint32_t>> out;
  for (int i = 0; i < n; ++i) {
    t[rng() % width] = rng() % 40;
    if (rng() % 4 == 0) t[width - 1] = rng() % 5;
    out.push_back(t);
  }
  return out;
}

}  // namespace

TEST_CASE("visited set: flat and tree give the first-insertion ids, keys inserted late find the same states") {
  for (const std::size_t width : {1U, 2U, 3U, 6U, 11U}) {
    INFO("width ", width);
    const auto tuples = walk_of(width, static_cast<std::uint32_t>(width) * 7 + 1, 20000);
    std::map<std::vector<std::uint32_t>, std::uint32_t> want;
    for (const auto& t : tuples) want.emplace(t, static_cast<std::uint32_t>(want.size()));
    for (const auto store : {statespace::StateStore::Flat, statespace::StateStore::Tree}) {
      INFO("tree ", store == statespace::StateStore::Tree);
      statespace::VisitedSet now(width, store), late(width, store);
      CHECK(now.store() == store);
      CHECK(now.key_words() == (store == statespace::StateStore::Tree ? 2U : width));
      // `late` takes each key when the tuple comes and inserts it 8 tuples later, as the search
      // inserts a successor kWindow successors after building it.
      std::vector<std::vector<std::uint32_t>> keys;
      std::vector<std::uint64_t> hashes;
      std::size_t added = 0;
      const auto add_one = [&] {
        const std::size_t before = late.count();
        const auto [id, fresh] = late.insert_key(keys[added].data(), hashes[added]);
        CHECK(id == want.at(tuples[added]));
        CHECK(fresh == (id == before));  // a new state takes the next id
        CHECK(late.count() == before + (fresh ? 1 : 0));
        ++added;
      };
      for (const auto& t : tuples) {
        const auto [id, fresh] = now.insert(t.data());
        CHECK(id == want.at(t));
        keys.emplace_back(late.key_words());
        hashes.push_back(late.key_of(t.data(), keys.back().data()));
        late.prefetch(hashes.back());
        if (keys.size() - added > 8) add_one();
      }
      while (added < keys.size()) add_one();
      REQUIRE(now.count() == want.size());
      REQUIRE(late.count() == want.size());
      for (const auto& [t, id] : want) {
        late.prefetch_tuple(id);
        CHECK(std::vector<std::uint32_t>(now.tuple(id), now.tuple(id) + width) == t);
        CHECK(std::vector<std::uint32_t>(late.tuple(id), late.tuple(id) + width) == t);
      }
      CHECK(now.bytes() > 0);
    }
  }
}
