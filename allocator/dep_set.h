#pragma once
// A set of dependencies (indices into Program::deps) as one bit per dependency. A Mix holds two
// (allocator/mixed.h) and the budget fit copies a Mix for every candidate it tries: the expert
// leaves the mask of every offset-0 dependency, 400,000 of them on a long block, where an ordered
// set cost a tree node per dependency, per copy and per lookup (docs/allocator.md "Complexity").
#include <cstddef>
#include <vector>

namespace syncbisim::allocator {

class DepSet {
 public:
  bool contains(std::size_t dep) const { return dep < bits_.size() && bits_[dep]; }
  void insert(std::size_t dep) {
    if (dep >= bits_.size()) bits_.resize(dep + 1, false);
    bits_[dep] = true;
  }
  template <class It>
  void insert(It first, It last) {
    for (; first != last; ++first) insert(*first);
  }

 private:
  std::vector<bool> bits_;
};

}  // namespace syncbisim::allocator
