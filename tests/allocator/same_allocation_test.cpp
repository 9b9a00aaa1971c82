// allocator::same_allocation_as, which lets `stats --compare` allocate once what two strategies
// share: it must only ever name a strategy whose allocation is the same, byte for byte, and it
// must name none where the two differ.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "allocator/spec_facts.h"
#include "formats/json_format.h"
#include "support/programs.h"

using namespace syncbisim;
using allocator::Strategy;

namespace {

// The impl and every decision as text: equal texts, equal allocations.
std::string text_of(const model::Result<allocator::Allocation>& a) {
  if (!a) return "error " + a.error().rule + ": " + a.error().message;
  std::string s = formats::write_json(a->impl);
  for (const auto& d : a->decisions) s += d.to_string() + "\n";
  for (const auto& n : a->notes) s += "note " + n + "\n";
  return s;
}

const std::vector<std::string> kSpecs = {"corpus/figures/fig7_fig8.json", "corpus/figures/fig1_motivating.json",
                                         "corpus/kernels/tiled_matmul.json", "corpus/kernels/stress_5engine.json",
                                         "corpus/kernels/adamw.json"};

}  // namespace

TEST_CASE("same_allocation_as: every alias it names allocates the same, at every budget") {
  int per_instruction_aliased = 0, per_instruction_kept = 0;
  for (const auto& path : kSpecs) {
    const auto spec = test::load_source(path);
    const allocator::SpecFacts facts(spec.program, spec.index);
    for (std::size_t sems : {256, 8, 4, 3, 2, 1}) {
      for (auto s : allocator::all_strategies()) {
        for (bool reductions : {true, false}) {
          allocator::Options o;
          o.strategy = s;
          o.max_semaphores = sems;
          o.licm = o.cse = reductions;
          const auto same = allocator::same_allocation_as(facts, o);
          const auto what = path + " " + allocator::to_string(s) + " sems " + std::to_string(sems);
          if (s == Strategy::Auto) {
            CHECK_MESSAGE(same == Strategy::PerLoop, what);
          } else if (s != Strategy::PerInstruction) {
            CHECK_MESSAGE(!same, what);
          }
          if (s == Strategy::PerInstruction) ++(same ? per_instruction_aliased : per_instruction_kept);
          if (!same) continue;
          allocator::Options other = o;
          other.strategy = *same;
          CHECK_MESSAGE(text_of(allocator::allocate(facts, o)) == text_of(allocator::allocate(facts, other)), what);
        }
      }
    }
  }
  // Both answers occur: per-instruction is its own at a generous budget and mixed's at a tight one.
  CHECK(per_instruction_aliased > 0);
  CHECK(per_instruction_kept > 0);
}

TEST_CASE("same_allocation_as: per-instruction within the budget is its own allocation") {
  const auto spec = test::load_source("corpus/kernels/tiled_matmul.json");
  const allocator::SpecFacts facts(spec.program, spec.index);
  allocator::Options o;
  o.strategy = Strategy::PerInstruction;
  CHECK(!allocator::same_allocation_as(facts, o));
  // and it differs from mixed's there (the alias would have been wrong)
  allocator::Options m = o;
  m.strategy = Strategy::Mixed;
  CHECK(text_of(allocator::allocate(facts, o)) != text_of(allocator::allocate(facts, m)));
}
