// The step memo's table (statespace/memo_table.h): one thread's table grows within its budget
// and forgets beyond it; a shared table takes inserts from several threads at once, finds every
// entry any of them inserted with the outcome it was inserted with, never takes one key twice
// once it is published, and grows or forgets only between levels (settle).
#include <doctest/doctest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "statespace/memo_table.h"

using syncbisim::statespace::MemoEntry;
using syncbisim::statespace::MemoOutcome;
using syncbisim::statespace::MemoTable;

namespace {

// Entry i: a valid piece word, keys that differ in every field, an outcome that names i.
MemoEntry entry_of(std::uint32_t i) {
  MemoEntry e;
  e.piece = 0x80000000U | (i % 7) << 20 | (i % 1000);
  e.part = i / 7;
  e.global = i % 3;
  e.context = std::uint64_t{i} * 0x10001;
  e.outcome = MemoOutcome{i, i + 1, std::uint64_t{i} << 10};
  return e;
}

bool finds(const MemoTable& t, std::uint32_t i) {
  const MemoOutcome* o = t.find(entry_of(i));
  return o && o->part == i && o->global == i + 1 && o->counts == std::uint64_t{i} << 10;
}

}  // namespace

TEST_CASE("memo table, one thread: it grows within its budget and forgets everything beyond it") {
  MemoTable t;
  const std::size_t first = t.bytes();
  for (std::uint32_t i = 0; i < 5000; ++i) t.insert(entry_of(i), std::size_t{1} << 30);
  CHECK(t.bytes() > first);
  for (std::uint32_t i = 0; i < 5000; ++i) REQUIRE(finds(t, i));
  CHECK_FALSE(t.find(entry_of(5000)));

  MemoTable small;
  for (std::uint32_t i = 0; i < 5000; ++i) small.insert(entry_of(i), small.bytes());
  CHECK(small.bytes() == first);  // never grew
  CHECK(finds(small, 4999));      // the last entry is kept
  CHECK_FALSE(finds(small, 0));   // the first were forgotten
}

TEST_CASE("memo table, shared: inserts from two threads at once are all found, none twice") {
  MemoTable t;
  constexpr std::uint32_t kEntries = 40000;
  t.settle(0, kEntries, std::size_t{1} << 30);
  REQUIRE(t.room() >= kEntries);
  // Both threads insert every entry, in opposite orders: each key goes in once.
  std::size_t took[2] = {0, 0};
  std::thread other([&] {
    for (std::uint32_t i = kEntries; i-- > 0;) took[1] += t.insert_shared(entry_of(i)) ? 1 : 0;
  });
  for (std::uint32_t i = 0; i < kEntries; ++i) took[0] += t.insert_shared(entry_of(i)) ? 1 : 0;
  other.join();
  // Both follow the same probe sequence for a key, and a slot once taken is never empty again:
  // the second thread meets the first one's slot (busy or published) and does not insert.
  CHECK(took[0] + took[1] == kEntries);
  for (std::uint32_t i = 0; i < kEntries; ++i) REQUIRE(finds(t, i));
  for (std::uint32_t i = 0; i < kEntries; ++i) CHECK_FALSE(t.insert_shared(entry_of(i)));

  // Between levels: the inserts counted, the table grows for the next level and keeps them.
  const std::size_t before = t.bytes(), room = t.room();
  t.settle(took[0] + took[1], 4 * kEntries, std::size_t{1} << 30);
  CHECK(t.bytes() > before);
  CHECK(t.room() >= 4 * kEntries);
  CHECK(t.room() != room);
  for (std::uint32_t i = 0; i < kEntries; ++i) REQUIRE(finds(t, i));

  // No room for the next level within the budget: everything is forgotten, the size kept.
  const std::size_t size = t.bytes();
  t.settle(0, 100 * kEntries, size);
  CHECK(t.bytes() == size);
  CHECK_FALSE(finds(t, 0));
  CHECK(t.room() > 0);
}
