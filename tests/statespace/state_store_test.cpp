// The state store (docs/checker.md "State storage"): the parent log gives back every parent it was
// given, the tables of rows, the packed pairs and the tree store give back every tuple under a
// dense id (also through growth and many near-equal tuples).
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "statespace/parent_log.h"
#include "statespace/tree_states.h"

using namespace syncbisim;

TEST_CASE("parent log: every parent read back, across marks, long gaps and long runs") {
  for (const std::uint32_t seed : {1U, 2U, 3U}) {
    INFO("seed ", seed);
    std::mt19937 rng(seed);
    statespace::ParentLog log;
    std::vector<std::uint32_t> want{statespace::ParentLog::kNone};
    log.push_back(statespace::ParentLog::kNone);
    std::uint32_t parent = 0;
    for (int i = 0; i < 50000; ++i) {
      // Mostly small steps, sometimes a gap of hundreds (states without new children), sometimes a
      // run of one parent (a state with many).
      const auto r = rng() % 100;
      if (r < 60) parent += rng() % 3;
      else if (r < 65) parent += rng() % 700;
      want.push_back(parent);
      log.push_back(parent);
    }
    REQUIRE(log.size() == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) REQUIRE(log[k] == want[k]);
  }
}

TEST_CASE("row table: ids are dense in first-insertion order, equal rows share one, through growth") {
  for (const std::size_t width : {1U, 2U, 3U}) {
    INFO("width ", width);
    statespace::RowTable t(width);
    std::map<std::vector<std::uint32_t>, std::uint32_t> ids;
    std::mt19937_64 rng(7 + width);
    std::vector<std::uint32_t> row(width);
    for (int i = 0; i < 300000; ++i) {
      // Few distinct values past the first word: many rows share their hash's bits by chance.
      row[0] = static_cast<std::uint32_t>(rng() % 50000);
      for (std::size_t w = 1; w < width; ++w) row[w] = static_cast<std::uint32_t>(rng() % 4);
      const auto [id, fresh] = t.insert(row.data());
      const auto it = ids.find(row);
      if (it == ids.end()) {
        REQUIRE(fresh);
        REQUIRE(id == ids.size());
        ids.emplace(row, id);
      } else {
        REQUIRE_FALSE(fresh);
        REQUIRE(id == it->second);
      }
    }
    CHECK(t.count() == ids.size());
    for (const auto& [r, id] : ids) CHECK(std::vector<std::uint32_t>(t.row(id), t.row(id) + width) == r);
    CHECK(t.bytes() >= t.count() * (4 * width + 4));  // the rows and at least one slot each
  }
}

TEST_CASE("packed pairs: every pair read back, as the ids' widths grow within and across chunks") {
  for (const std::uint32_t seed : {1U, 2U}) {
    INFO("seed ", seed);
    statespace::PackedPairs packed;
    std::vector<std::uint64_t> want;
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 300000; ++i) {
      // Mostly small ids; now and then one of up to 32 bits on either side (a repack), and zeros.
      const auto draw = [&]() -> std::uint64_t {
        const auto r = rng() % 100000;
        if (r == 0) return rng() & 0xffffffffULL;
        if (r < 500) return 0;
        return rng() % (std::uint64_t{1} << (1 + i / 20000));
      };
      const std::uint64_t pair = draw() | draw() << 32;
      packed.push(pair);
      want.push_back(pair);
    }
    REQUIRE(packed.size() == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) REQUIRE(packed.get(k) == want[k]);
  }
  // Ids below 2^20 take 40 bits a pair (and a few bytes a chunk), not 64; four full chunks of 2^16
  // pairs (a chunk's bytes are reserved whole when it starts).
  statespace::PackedPairs narrow;
  std::mt19937_64 rng(3);
  const std::size_t n = std::size_t{4} << 16;
  for (std::size_t k = 0; k < n; ++k) narrow.push((rng() & 0xfffff) | (rng() & 0xfffff) << 32);
  CHECK(narrow.bytes() < n * 6);
}

TEST_CASE("tree states: every tuple width round-trips, ids as a flat set gives them") {
  for (const std::size_t width : {1U, 2U, 3U, 4U, 5U, 6U, 9U}) {
    INFO("width ", width);
    statespace::TreeStates tree(width);
    statespace::StateSet flat(width);
    std::mt19937 rng(static_cast<unsigned>(width));
    std::vector<std::uint32_t> t(width), back(width);
    for (int i = 0; i < 40000; ++i) {
      // Tuples near the last one (as a state's successors are), with words of few values.
      const std::size_t w = rng() % width;
      t[w] = rng() % 20 + (rng() % 50 == 0 ? static_cast<std::uint32_t>(rng()) : 0);  // now and then a large id
      if (rng() % 4 == 0) t[width - 1] = rng() % 3;
      const auto a = tree.insert(t.data());
      const auto b = flat.insert(t.data());
      REQUIRE(a == b);
    }
    REQUIRE(tree.count() == flat.count());
    for (std::uint32_t id = 0; id < tree.count(); ++id) {
      tree.tuple(id, back.data());
      const std::uint32_t* want = flat.tuple(id);
      REQUIRE(std::vector<std::uint32_t>(want, want + width) == back);
    }
  }
}

TEST_CASE("tree states: successors of the tuple decoded last (its halves compared first) get a flat set's ids") {
  // As the search uses it: decode a stored tuple, then insert tuples that change a word or two of
  // it (one half kept, both changed, or none: the decoded tuple itself), now and then with a word
  // changed back to the decoded one's; decoded halves and cached ones must never be mixed up.
  for (const std::size_t width : {3U, 4U, 6U, 7U}) {
    INFO("width ", width);
    statespace::TreeStates tree(width);
    statespace::StateSet flat(width);
    std::mt19937 rng(static_cast<unsigned>(100 + width));
    std::vector<std::uint32_t> t(width, 0), back(width);
    REQUIRE(tree.insert(t.data()) == flat.insert(t.data()));
    for (int i = 0; i < 60000; ++i) {
      const auto id = static_cast<std::uint32_t>(rng() % tree.count());
      tree.tuple(id, back.data());
      const std::uint32_t* want = flat.tuple(id);
      REQUIRE(std::vector<std::uint32_t>(want, want + width) == back);
      for (int k = 0; k < 4; ++k) {
        t = back;
        const auto changes = rng() % 3;  // 0: the decoded tuple itself
        for (unsigned c = 0; c < changes; ++c) t[rng() % width] = rng() % 40;
        const auto a = tree.insert(t.data());
        const auto b = flat.insert(t.data());
        REQUIRE(a == b);
      }
    }
    REQUIRE(tree.count() == flat.count());
    CHECK(tree.count() > 1000);  // the tuples spread over many rows of each half
    for (std::uint32_t id = 0; id < tree.count(); ++id) {
      tree.tuple(id, back.data());
      const std::uint32_t* want = flat.tuple(id);
      REQUIRE(std::vector<std::uint32_t>(want, want + width) == back);
    }
  }
}
