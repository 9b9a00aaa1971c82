#include "fuzz/spec_profile.h"

#include <algorithm>
#include <map>

#include "analysis/dependency_analysis.h"
#include "analysis/dependency_liveness.h"

namespace syncbisim::fuzz {

const char* to_string(DependencyCase c) {
  switch (c) {
    case DependencyCase::ProducerInSForward: return "producer-in-S forward";
    case DependencyCase::ProducerInSBackward: return "producer-in-S backward";
    case DependencyCase::NestedForward: return "nested forward";
    case DependencyCase::NestedBackward: return "nested backward";
    case DependencyCase::ExclusiveBranches: return "exclusive branches";
    case DependencyCase::MultiLevel: return "multi-level";
    case DependencyCase::NestedOtherOffset: return "nested, other offset";
  }
  return "?";
}

bool SpecProfile::degenerate() const {
  return std::none_of(deps.begin(), deps.end(), [](const DependencyProfile& d) { return d.live; });
}

namespace {

DependencyCase case_of(const analysis::DependencyInfo& d) {
  const bool above_S = std::any_of(d.distance.begin(), d.distance.end() - (d.distance.empty() ? 0 : 1),
                                   [](std::uint32_t k) { return k != 0; });
  if (above_S) return DependencyCase::MultiLevel;
  if (d.exclusive_branches) return DependencyCase::ExclusiveBranches;
  switch (d.cls) {
    case analysis::DepClass::ProducerInS:
      return d.forward ? DependencyCase::ProducerInSForward : DependencyCase::ProducerInSBackward;
    case analysis::DepClass::NestedForward: return DependencyCase::NestedForward;
    case analysis::DepClass::NestedBackward: return DependencyCase::NestedBackward;
    case analysis::DepClass::NotAllocatable: break;
  }
  return DependencyCase::NestedOtherOffset;
}

}  // namespace

SpecProfile profile_spec(const model::Program& spec, const model::ProgramIndex& ix) {
  SpecProfile out;
  out.footprints = spec.has_footprints();
  for (const auto& l : ix.loops) {
    out.depth = std::max(out.depth, l.depth);
    if (l.kind == model::LoopKind::CondThen || l.kind == model::LoopKind::CondElse) out.conds = true;
    if (l.trip && l.trip->divergent) out.divergent = true;
  }
  const auto analysis = analysis::analyze_dependencies(spec, ix);
  const auto liveness = analysis::dependency_liveness(ix, analysis);
  std::map<model::InstrId, std::uint32_t> live_per_consumer;
  for (std::size_t i = 0; i < analysis.deps.size(); ++i) {
    const auto& d = analysis.deps[i];
    DependencyProfile p;
    p.kind = case_of(d);
    p.offset = p.kind == DependencyCase::MultiLevel ? *std::max_element(d.distance.begin(), d.distance.end()) : d.offset;
    p.depth = ix.loops[d.S].depth;
    p.same_engine = d.producer_engine == d.consumer_engine;
    p.live = liveness[i].live;
    if (p.live && ++live_per_consumer[d.consumer] == 2) ++out.consumers_with_several;
    out.deps.push_back(p);
  }
  return out;
}

}  // namespace syncbisim::fuzz
