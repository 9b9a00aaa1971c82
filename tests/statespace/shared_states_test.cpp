// The threaded search's visited set (statespace/shared_states.h): grown ahead between levels
// (make_room), it takes a level of the expected size without growing again, its shares grown by
// different threads make the same tables as one thread growing all of them, and every state
// stored before is found again under its id.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <set>
#include <thread>
#include <vector>

#include "statespace/shared_states.h"

using syncbisim::statespace::SharedStates;

namespace {

std::array<std::uint32_t, 3> tuple_of(std::uint32_t i) { return {i, i * 7 + 1, i % 5}; }

// Inserts the tuples first .. last-1 (keys are their numbers); the ids they were stored under.
std::vector<std::uint32_t> insert_range(SharedStates& s, SharedStates::Ids& ids, SharedStates::Views& views,
                                        std::uint32_t first, std::uint32_t last, bool expect_new) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = first; i < last; ++i) {
    const auto t = tuple_of(i);
    const auto in = s.insert(t.data(), s.hash(t.data()), i, ids, views);
    CHECK(in.added == expect_new);
    out.push_back(in.id);
  }
  return out;
}

}  // namespace

TEST_CASE("shared states: room made between levels takes the next level without growing, and keeps every state") {
  // Four partitions (two threads') of 1,024 slots at first: the level needs far more; all the
  // rows fit in the first chunk of rows (2^17), so bytes() changes only with the slots.
  constexpr std::uint32_t kBefore = 3000, kLevel = 100000;
  SharedStates grown(3, 2), plain(3, 2), alone(3, 2);
  SharedStates::Ids a, b, c;
  SharedStates::Views va, vb, vc;
  grown.begin_level();
  plain.begin_level();
  alone.begin_level();
  const auto ids = insert_range(grown, a, va, 0, kBefore, true);
  insert_range(plain, b, vb, 0, kBefore, true);
  insert_range(alone, c, vc, 0, kBefore, true);

  // A new level: two threads' shares of the growth, against one thread growing everything; the
  // views taken again after the growth (make_room frees the tables it replaces), as the search
  // does at the start of each level.
  grown.begin_level();
  alone.begin_level();
  plain.begin_level();
  a = b = c = {};
  const std::size_t empty = grown.bytes();
  grown.make_room(kLevel, 0, 2);
  grown.make_room(kLevel, 1, 2);
  alone.make_room(kLevel, 0, 1);
  grown.look(va);
  plain.look(vb);
  alone.look(vc);
  CHECK(grown.bytes() == alone.bytes());
  CHECK(grown.bytes() > empty);

  // Every state of the level before, found under its id and not claimed (not new in this level).
  for (std::uint32_t i = 0; i < kBefore; ++i) {
    const auto t = grown.tuple(ids[i]);
    const auto want = tuple_of(i);
    CHECK(std::vector<std::uint32_t>(t, t + 3) == std::vector<std::uint32_t>(want.begin(), want.end()));
    const auto in = grown.insert(t, grown.hash(t), i, a, va);
    CHECK(in.id == ids[i]);
    CHECK(!in.added);
    CHECK(!in.claimed);
  }

  // The level's new states: no table grows for them where room was made; without it, some do.
  const std::size_t grown_before = grown.bytes(), plain_before = plain.bytes();
  const auto fresh = insert_range(grown, a, va, kBefore, kBefore + kLevel, true);
  insert_range(plain, b, vb, kBefore, kBefore + kLevel, true);
  CHECK(grown.bytes() == grown_before);
  CHECK(plain.bytes() > plain_before);
  for (std::uint32_t k = 0; k < kLevel; ++k) {
    CHECK(grown.in_level(fresh[k]));
    CHECK(grown.key(fresh[k]) == kBefore + k);
  }
  // Room for nothing more grows nothing.
  const std::size_t after = grown.bytes();
  grown.make_room(0, 0, 1);
  CHECK(grown.bytes() == after);
}

TEST_CASE("shared states: a thread's view taken before its partitions grew still finds every state") {
  // Two partitions of 1,024 slots: 20,000 states make each double four times within the level,
  // the old tables kept to its end. A view taken after the first 500 sees only the first tables:
  // the states added since are missed there and found under the lock, under their own ids.
  SharedStates s(3, 1);
  SharedStates::Ids ids;
  SharedStates::Views live, stale;
  s.begin_level();
  const auto first = insert_range(s, ids, live, 0, 500, true);
  s.look(stale);
  const auto later = insert_range(s, ids, live, 500, 20000, true);
  SharedStates::Views renewed = stale;  // insert() renews a view's partition when it takes the lock
  for (std::uint32_t i = 0; i < 20000; ++i) {
    const auto t = tuple_of(i);
    SharedStates::Views old = stale;
    const auto in = s.insert(t.data(), s.hash(t.data()), 0, ids, i % 2 ? old : renewed);
    CHECK(in.id == (i < 500 ? first[i] : later[i - 500]));
    CHECK(!in.added);
  }
  SharedStates::Views now;
  s.look(now);
  insert_range(s, ids, now, 0, 20000, false);
}

TEST_CASE("shared states: two threads inserting at once while the partitions grow add each state once") {
  // No room made: the partitions grow within the level, from 1,024 slots, while both threads
  // look up without the lock and insert under it. Each tuple of the overlap is inserted by both;
  // exactly one of them adds it, and afterwards every tuple is found under one id of its own.
  constexpr std::uint32_t kEach = 60000, kOverlap = 30000;
  SharedStates s(3, 2);
  s.begin_level();
  std::vector<std::uint32_t> added_by[2];
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < 2; ++w)
    threads.emplace_back([&, w] {
      SharedStates::Ids ids;
      SharedStates::Views views;
      s.look(views);
      const std::uint32_t first = w * (kEach - kOverlap);
      for (std::uint32_t i = first; i < first + kEach; ++i) {
        // Opposite orders over the overlap, so that both threads meet there at once.
        const std::uint32_t k = w == 0 ? i : 2 * first + kEach - 1 - i;
        const auto t = tuple_of(k);
        if (s.insert(t.data(), s.hash(t.data()), k, ids, views).added) added_by[w].push_back(k);
      }
    });
  for (auto& t : threads) t.join();
  std::set<std::uint32_t> added(added_by[0].begin(), added_by[0].end());
  for (const auto k : added_by[1]) CHECK(added.insert(k).second);  // never added twice
  const std::uint32_t total = 2 * kEach - kOverlap;
  CHECK(added.size() == total);
  SharedStates::Ids ids;
  SharedStates::Views views;
  s.look(views);
  std::set<std::uint32_t> seen;
  for (std::uint32_t k = 0; k < total; ++k) {
    const auto t = tuple_of(k);
    const auto in = s.insert(t.data(), s.hash(t.data()), k, ids, views);
    CHECK(!in.added);
    CHECK(seen.insert(in.id).second);
    const auto* row = s.tuple(in.id);
    CHECK(std::vector<std::uint32_t>(row, row + 3) == std::vector<std::uint32_t>(t.begin(), t.end()));
  }
}
