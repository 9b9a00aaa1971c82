#pragma once
// Interns short sequences of 32-bit words: equal sequences get the same dense id. The words live
// in one arena; an open-addressing table of ids finds them. Used for the parts of product
// states (checker/state_codec.h) and, with fixed-width tuples of part ids, for whole states.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace syncbisim::checker {

class ChunkTable {
 public:
  // The id of `words`, and whether it was new.
  std::pair<std::uint32_t, bool> intern(const std::uint32_t* words, std::size_t n);
  std::pair<std::uint32_t, bool> intern(const std::vector<std::uint32_t>& w) { return intern(w.data(), w.size()); }

  const std::uint32_t* data(std::uint32_t id) const { return arena_.data() + offsets_[id]; }
  std::size_t size(std::uint32_t id) const { return offsets_[id + 1] - offsets_[id]; }
  std::size_t count() const { return offsets_.size() - 1; }
  std::size_t bytes() const;

 private:
  static std::uint64_t hash(const std::uint32_t* w, std::size_t n);
  void grow();

  std::vector<std::uint32_t> arena_;
  std::vector<std::uint64_t> offsets_{0};  // offsets_[id] .. offsets_[id + 1]
  std::vector<std::uint32_t> slots_;       // ids + 1; 0 = empty
  std::vector<std::uint32_t> hashes_;      // low bits of each id's hash, to skip most compares
};

}  // namespace syncbisim::checker
