#include "statespace/shared_states.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <new>

namespace syncbisim::statespace {

using detail::id_of;
using detail::MaybeLocked;
using detail::position;
using detail::regrow;
using detail::same_hash;
using detail::slot_of;
using detail::Slots;

std::size_t SharedStates::partitions_for(unsigned threads) {
  return std::min(kMaxPartitions, std::bit_ceil(std::max<std::size_t>(2, std::size_t{2} * threads)));
}

SharedStates::SharedStates(std::size_t width, unsigned threads)
    : width_(width),
      partition_mask_(partitions_for(threads) - 1),
      partitions_(new Partition[partition_mask_ + 1]),
      key_at_((width + 1) / 2 * 2),
      rows_(key_at_ + 2) {}

void SharedStates::look(Views& views) const {
  for (std::size_t i = 0; i <= partition_mask_; ++i) views.of[i] = view_of(tables_[i].load(std::memory_order_acquire));
}

void SharedStates::prefetch(std::uint64_t h, const Views& views) const {
  // A partition without a table has mask 0 and no slots: the prefetch of a null address is
  // harmless (a prefetch never faults), and cheaper than a branch here.
#if defined(__GNUC__)
  const View& v = views.of[h & partition_mask_];
  __builtin_prefetch(v.slots + position(h, v.mask));
#endif
}

void SharedStates::begin_level() {
  level_base_ = static_cast<std::uint32_t>(next_.load(std::memory_order_relaxed));
  for (std::size_t i = 0; i <= partition_mask_; ++i) {
    auto& p = partitions_[i];
    for (const auto& t : p.retired)
      slot_bytes_.fetch_sub(t->slots.capacity() * sizeof(std::uint64_t), std::memory_order_relaxed);
    p.retired.clear();
  }
}

void SharedStates::grow(Partition& p, std::size_t cap, bool readers) {
  auto grown = std::make_unique<Table>();
  grown->slots = regrow(p.current ? p.current->slots : Slots{}, cap);
  slot_bytes_.fetch_add(grown->slots.capacity() * sizeof(std::uint64_t), std::memory_order_relaxed);
  tables_[&p - partitions_.get()].store(grown.get(), std::memory_order_release);
  if (p.current && readers) {
    p.retired.push_back(std::move(p.current));
  } else if (p.current) {
    slot_bytes_.fetch_sub(p.current->slots.capacity() * sizeof(std::uint64_t), std::memory_order_relaxed);
  }
  p.current = std::move(grown);
}

void SharedStates::make_room(std::size_t expected, unsigned share, unsigned shares) {
  // A partition's share of the states is binomial: its mean and a few deviations beside it, so
  // that few partitions still grow within the level when the guess is right.
  const double mean = static_cast<double>(expected) / static_cast<double>(partition_mask_ + 1);
  const auto more = static_cast<std::size_t>(mean + 4 * std::sqrt(mean));
  for (std::size_t i = share; i <= partition_mask_; i += shares) {
    Partition& p = partitions_[i];
    const std::size_t need = p.count + more;
    std::size_t cap = p.current ? p.current->slots.size() : 1024;
    while (need * 5 > cap * 4) cap *= 2;  // the load factor insert() keeps
    if (!p.current || cap > p.current->slots.size()) grow(p, cap, false);
  }
}

void SharedStates::reserve(Ids& ids) {
  if (ids.next != ids.end) return;
  const std::uint64_t first = next_.fetch_add(ids.block, std::memory_order_relaxed);
  const std::uint64_t end = first + ids.block;
  // Storage ids are 32 bits and kNone is none of them: past that, the search ends as for any
  // allocation that fails (limit: memory), never with an id that wrapped onto a stored state.
  if (end > kNone) throw std::bad_alloc();
  // A reservation may straddle two chunks of rows.
  rows_.ensure(first);
  rows_.ensure(end - 1);
  // The rows are written now, before any lock is taken: the first write to a fresh page is a page
  // fault (zeroing a huge page takes milliseconds on a virtual machine), which under a
  // partition's lock would hold up every thread inserting into that partition meanwhile.
  for (std::uint64_t id = first; id < end; ++id) *key_of(static_cast<std::uint32_t>(id)) = 0;
  ids.next = static_cast<std::uint32_t>(first);
  ids.end = static_cast<std::uint32_t>(end);
  ids.block = std::min(kBlock, ids.block * 2);
}

namespace {
std::uint64_t load(const std::uint64_t& slot) {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(slot)).load(std::memory_order_acquire);
}
}  // namespace

std::uint32_t SharedStates::find(const View& v, const std::uint32_t* t, std::uint64_t h) const {
  if (!v.slots) return kNone;
  for (std::size_t i = position(h, v.mask);; i = (i + 1) & v.mask) {
    const std::uint64_t slot = load(v.slots[i]);
    if (slot == 0) return kNone;
    if (same_hash(slot, h) && same_row(id_of(slot), t)) return id_of(slot);
  }
}

bool SharedStates::lower(std::uint32_t id, std::uint64_t key) {
  std::atomic_ref<std::uint64_t> least(*key_of(id));
  std::uint64_t seen = least.load(std::memory_order_relaxed);
  while (key < seen)
    if (least.compare_exchange_weak(seen, key, std::memory_order_relaxed)) return true;
  return false;
}

SharedStates::Inserted SharedStates::insert(const std::uint32_t* t, std::uint64_t h, std::uint64_t key, Ids& ids,
                                            Views& views) {
  Partition& p = partitions_[h & partition_mask_];
  // Most successors are known: found without the lock.
  {
    const std::uint32_t id = find(views.of[h & partition_mask_], t, h);
    if (id != kNone) return {id, id >= level_base_ && lower(id, key), false};
  }
  reserve(ids);  // outside the lock: it may allocate and touch fresh memory
  const MaybeLocked guard(p.lock, true);
  // A load factor of 0.8 at most, as StateSet.
  if (!p.current || (p.count + 1) * 5 > p.current->slots.size() * 4)
    grow(p, p.current ? p.current->slots.size() * 2 : 1024, true);
  views.of[h & partition_mask_] = view_of(p.current.get());  // the next lookup sees what this one will find
  Slots& slots = p.current->slots;
  const std::size_t mask = slots.size() - 1;
  for (std::size_t i = position(h, mask);; i = (i + 1) & mask) {
    const std::uint64_t slot = slots[i];  // written under this lock only
    if (slot == 0) {
      const std::uint32_t id = ids.next++;  // reserved above
      std::copy(t, t + width_, rows_.row(id));
      std::atomic_ref<std::uint64_t>(*key_of(id)).store(key, std::memory_order_relaxed);
      std::atomic_ref<std::uint64_t>(slots[i]).store(slot_of(id, h), std::memory_order_release);
      ++p.count;
      return {id, true, true};
    }
    if (!same_hash(slot, h) || !same_row(id_of(slot), t)) continue;
    const std::uint32_t id = id_of(slot);
    return {id, id >= level_base_ && lower(id, key), false};
  }
}

std::size_t SharedStates::bytes() const {
  return rows_.bytes() + slot_bytes_.load(std::memory_order_relaxed) + (partition_mask_ + 1) * sizeof(Partition);
}

}  // namespace syncbisim::statespace
