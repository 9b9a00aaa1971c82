#include "allocator/spec_facts.h"

#include <utility>

namespace syncbisim::allocator {

SpecFacts::SpecFacts(const model::Program& s, const model::ProgramIndex& i)
    : SpecFacts(s, i, analysis::analyze_dependencies(s, i)) {}

SpecFacts::SpecFacts(const model::Program& s, const model::ProgramIndex& i, analysis::DependencyAnalysis a)
    : spec(s),
      ix(i),
      analysis(std::move(a)),
      layout(analysis::layout_of(s, i)),
      counts(count_bodies(s, i)),
      direct(i.loops.size()) {
  for (model::InstrId n = 0; n < i.instrs.size(); ++n) direct[i.instrs[n].parent].push_back(n);
}

std::string dep_label(const model::Dependency& d) {
  std::string s = d.producer + " -> " + d.consumer + " {";
  bool first = true;
  for (const auto& [loop, k] : d.distance) {
    if (k == 0) continue;
    s += (first ? "" : ", ") + loop + ": " + std::to_string(k);
    first = false;
  }
  for (const auto& loop : d.every) {
    s += (first ? "" : ", ") + loop + ": *";
    first = false;
  }
  return s + "}";
}

}  // namespace syncbisim::allocator
