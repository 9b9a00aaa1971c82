// The threaded search's visited set (checker/detail/shared_states.h): grown ahead between levels
// (make_room), it takes a level of the expected size without growing again, its shares grown by
// different threads make the same tables as one thread growing all of them, and every state
// stored before is found again under its id.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "checker/detail/shared_states.h"

using syncbisim::checker::detail::SharedStates;

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

  // A new level: two threads' shares of the growth, against one thread growing everything.
  grown.begin_level();
  alone.begin_level();
  plain.begin_level();
  a = b = c = {};
  const std::size_t empty = grown.bytes();
  grown.make_room(kLevel, 0, 2);
  grown.make_room(kLevel, 1, 2);
  alone.make_room(kLevel, 0, 1);
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
