#pragma once
// Every allocator strategy with each of its options, for tests that run them all on a corpus.
#include <string>
#include <utility>
#include <vector>

#include "allocator/allocate.h"

namespace syncbisim::test {

// Each strategy with its default options; the barrier-free ones also with each option, and with
// both reductions, turned away from the default (named as on the command line).
inline std::vector<std::pair<allocator::Options, std::string>> allocator_variants() {
  using Set = void (*)(allocator::Options&);
  const std::pair<const char*, Set> turned[] = {
      {" --prune-registers", [](allocator::Options& o) { o.prune_registers = true; }},
      {" --barrier-fallback", [](allocator::Options& o) { o.barrier_fallback = true; }},
      {" --no-licm", [](allocator::Options& o) { o.licm = false; }},
      {" --no-cse", [](allocator::Options& o) { o.cse = false; }},
      {" --no-licm --no-cse", [](allocator::Options& o) { o.licm = o.cse = false; }},
  };
  std::vector<std::pair<allocator::Options, std::string>> out;
  for (auto s : allocator::all_strategies()) {
    allocator::Options o;
    o.strategy = s;
    const std::string name = allocator::to_string(s);
    out.emplace_back(o, name);
    if (s == allocator::Strategy::Barrier) continue;
    for (const auto& [suffix, set] : turned) {
      auto v = o;
      set(v);
      out.emplace_back(v, name + suffix);
    }
    if (s == allocator::Strategy::Expert) {
      // The other end of the expert's choice: a judge that never minds sharing, so every producer
      // pair shares one semaphore, decoded in the thresholds (allocator/expert.h).
      auto v = o;
      v.judge = [](const model::Program&, const model::ProgramIndex&, const model::Program&) -> std::optional<std::uint64_t> { return 0; };
      out.emplace_back(v, name + " (every pair shared)");
    }
  }
  return out;
}

}  // namespace syncbisim::test
