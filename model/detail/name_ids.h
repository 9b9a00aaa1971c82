#pragma once
// From a name to its dense id, for ProgramIndex. The names themselves stay where the index keeps
// them (its `engines`, `loops`, `instrs`, ... vectors); the table holds only ids and hashes, in one
// open-addressing array: no node and no copy of the name per entry. A long block's index (200,000
// instructions, built for every allocation's safety check and every timing judge) spent most of
// its time allocating, walking and freeing std::unordered_map nodes (docs/allocator.md
// "Complexity"; docs/choices.md says why this is written here).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncbisim::model::detail {

class NameIds {
 public:
  // The id of `name`, if it was inserted. `name_of(id)` gives the name an id stands for.
  template <class NameOf>
  std::optional<std::uint32_t> find(std::string_view name, const NameOf& name_of) const {
    if (slots_.empty()) return std::nullopt;
    const std::uint32_t h = hash(name);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.id == kEmpty) return std::nullopt;
      if (s.hash == h && std::string_view(name_of(s.id)) == name) return s.id;
    }
  }

  // Adds `name` as `id`; false (and nothing added) if the name is there already.
  template <class NameOf>
  bool insert(std::string_view name, std::uint32_t id, const NameOf& name_of) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const std::uint32_t h = hash(name);
    std::size_t i = h & mask();
    for (;; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.id == kEmpty) break;
      if (s.hash == h && std::string_view(name_of(s.id)) == name) return false;
    }
    slots_[i] = Slot{id, h};
    ++size_;
    return true;
  }

  std::size_t size() const { return size_; }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;  // no index holds 2^32 - 1 names of one kind
  struct Slot {
    std::uint32_t id = kEmpty;
    std::uint32_t hash = 0;
  };

  static std::uint32_t hash(std::string_view s) {
    const std::size_t h = std::hash<std::string_view>{}(s);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }
  std::size_t mask() const { return slots_.size() - 1; }

  // Doubles the array (at most half full), placing each id again by its kept hash.
  void grow() {
    std::vector<Slot> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.id == kEmpty) continue;
      std::size_t i = s.hash & mask();
      while (slots_[i].id != kEmpty) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace syncbisim::model::detail
