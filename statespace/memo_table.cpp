#include "statespace/memo_table.h"

#include <algorithm>
#include <atomic>

namespace syncbisim::statespace {

namespace {
constexpr std::size_t kFirstSlots = 1024;
// A shared slot being written (no piece word has every bit set: see step_memo.cpp's piece_word).
constexpr std::uint32_t kBusy = UINT32_MAX;

std::uint32_t piece_of(const MemoEntry& slot) {
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(slot.piece)).load(std::memory_order_acquire);
}
}  // namespace

MemoTable::MemoTable() : slots_(kFirstSlots) {}

std::uint64_t MemoTable::hash(const MemoEntry& k) {
  std::uint64_t h = (std::uint64_t{k.piece} << 32 | k.part) * 0x9e3779b97f4a7c15ULL;
  h ^= (std::uint64_t{k.global} << 32 ^ k.context) * 0xff51afd7ed558ccdULL;
  h ^= h >> 32;
  return h * 0x9e3779b97f4a7c15ULL >> 20;
}

const MemoOutcome* MemoTable::find(const MemoEntry& key) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
    const MemoEntry& slot = slots_[i];
    const std::uint32_t piece = piece_of(slot);
    if (piece == 0 || piece == kBusy) return nullptr;
    if (piece == key.piece && slot.same_key(key)) return &slot.outcome;
  }
}

void MemoTable::insert(const MemoEntry& e, std::size_t budget) {
  if ((count_ + 1) * 2 > slots_.size()) {
    const std::size_t cap = slots_.size() * 2;
    if (cap * sizeof(MemoEntry) > budget) {
      forget();
    } else {
      grow(cap);
    }
  }
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash(e) & mask;
  while (slots_[i].piece != 0) i = (i + 1) & mask;
  slots_[i] = e;
  ++count_;
}

bool MemoTable::insert_shared(const MemoEntry& e) {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash(e) & mask;; i = (i + 1) & mask) {
    MemoEntry& slot = slots_[i];
    std::atomic_ref<std::uint32_t> piece(slot.piece);
    std::uint32_t seen = piece.load(std::memory_order_acquire);
    if (seen == 0 && piece.compare_exchange_strong(seen, kBusy, std::memory_order_acquire, std::memory_order_acquire)) {
      slot.part = e.part;
      slot.global = e.global;
      slot.context = e.context;
      slot.outcome = e.outcome;
      piece.store(e.piece, std::memory_order_release);
      return true;
    }
    // Another thread took the slot first (seen now holds what it wrote, or kBusy). Threads follow
    // the same probes for a key and no slot is emptied during a level, so a key goes in once. A
    // slot being written ends the insert (the piece is then not remembered: a cost in time only).
    if (seen == kBusy) return false;
    if (seen == e.piece && slot.same_key(e)) return false;
  }
}

void MemoTable::settle(std::size_t added, std::size_t expected, std::size_t budget) {
  count_ += added;
  const std::size_t want = std::max<std::size_t>(expected, kFirstSlots / 4);
  std::size_t cap = slots_.size();
  while ((count_ + want) * 2 > cap && cap * 2 * sizeof(MemoEntry) <= budget) cap *= 2;
  if (cap > slots_.size()) grow(cap);
  // No room for the next level within the budget: as one thread's table when it is full.
  if ((count_ + want) * 2 > slots_.size()) forget();
}

void MemoTable::forget() {
  std::fill(slots_.begin(), slots_.end(), MemoEntry{});
  count_ = 0;
}

void MemoTable::grow(std::size_t cap) {
  LargeArray<MemoEntry> fresh(cap);
  for (const auto& e : slots_) {
    if (e.piece == 0) continue;
    std::size_t i = hash(e) & (cap - 1);
    while (fresh[i].piece != 0) i = (i + 1) & (cap - 1);
    fresh[i] = e;
  }
  slots_ = std::move(fresh);
}

}  // namespace syncbisim::statespace
