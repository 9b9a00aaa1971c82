#pragma once
// The step memo's table (statespace/detail/step_memo.h): the open-addressing table of the
// pieces it remembers. One thread's table grows, or forgets everything, when it fills up. The
// threaded search (docs/checker.md "Threads") gives all its threads one table: each thread's
// memo learns what the others learnt (two tables of half the size learnt the same pieces twice,
// and held twice the lines in the shared cache). A shared table is looked up and written by every
// thread at once and changes size only between levels, when no thread uses it.
//
// A shared slot is taken by one atomic change of its piece word from 0 (empty) to kBusy; the
// rest of the entry is written, then the piece, with a release store. A lookup reads the piece
// with an acquire load and the rest of an entry only once it is published; a busy slot ends
// the lookup as a miss (a memo miss costs time, never a wrong answer). An entry is never changed
// once published, until the table is cleared or grown between levels.
#include <cstddef>
#include <cstdint>

#include "statespace/part_table.h"

namespace syncbisim::statespace {

// The parts of the state after a piece on engine g that may differ from before: g's and the
// global one, and g's trip counts of the uniform range loops, 10 bits each.
struct MemoOutcome {
  std::uint32_t part = 0;
  std::uint32_t global = 0;
  std::uint64_t counts = 0;
};

struct MemoEntry {
  std::uint32_t piece = 0;  // kind, engine, argument (0: an empty slot)
  std::uint32_t part = 0;
  std::uint32_t global = 0;
  std::uint64_t context = 0;
  MemoOutcome outcome;
  bool same_key(const MemoEntry& o) const {
    return piece == o.piece && part == o.part && global == o.global && context == o.context;
  }
};

class MemoTable {
 public:
  MemoTable();

  // The outcome remembered for `key`'s piece, part, global part and context, or null.
  const MemoOutcome* find(const MemoEntry& key) const;
  // One thread's table: remembers `e`, whose key find() did not know. Full, it doubles if that
  // stays within `budget` bytes, else it forgets everything first.
  void insert(const MemoEntry& e, std::size_t budget);
  // A shared table, from any thread: remembers `e` unless its key is there already or a slot on
  // its way is being written (then false). The caller keeps to its share of room() (see StepMemo::share).
  bool insert_shared(const MemoEntry& e);
  // A shared table, between levels (no thread using it): `added` entries were inserted since the
  // last call. The table doubles, within `budget` bytes, until it has room for `expected` more
  // (a few hundred at least) at half load; if it still has not, it forgets everything.
  void settle(std::size_t added, std::size_t expected, std::size_t budget);
  // The entries that may still be inserted before the table is half full.
  std::size_t room() const { return slots_.size() / 2 > count_ ? slots_.size() / 2 - count_ : 0; }
  std::size_t bytes() const { return slots_.capacity() * sizeof(MemoEntry); }

 private:
  static std::uint64_t hash(const MemoEntry& k);
  void grow(std::size_t cap);
  void forget();  // every entry, the size kept

  LargeArray<MemoEntry> slots_;
  std::size_t count_ = 0;
};

}  // namespace syncbisim::statespace
