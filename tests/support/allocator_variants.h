#pragma once
// Every allocator strategy with each of its options, for tests that run them all on a corpus.
#include <string>
#include <utility>
#include <vector>

#include "allocator/allocate.h"

namespace syncbisim::test {

inline std::vector<std::pair<allocator::Options, std::string>> allocator_variants() {
  std::vector<std::pair<allocator::Options, std::string>> out;
  for (auto s : allocator::all_strategies()) {
    allocator::Options o;
    o.strategy = s;
    const std::string name = allocator::to_string(s);
    out.emplace_back(o, name);
    if (s == allocator::Strategy::Barrier) continue;
    o.prune_registers = true;
    out.emplace_back(o, name + " --prune-registers");
    o.prune_registers = false;
    o.barrier_fallback = true;
    out.emplace_back(o, name + " --barrier-fallback");
    o.barrier_fallback = false;
    o.licm = false;
    out.emplace_back(o, name + " --no-licm");
    o.licm = true;
    o.cse = false;
    out.emplace_back(o, name + " --no-cse");
    o.licm = false;
    out.emplace_back(o, name + " --no-licm --no-cse");
  }
  return out;
}

}  // namespace syncbisim::test
