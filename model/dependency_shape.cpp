#include "model/dependency_shape.h"

namespace syncbisim::model {

std::optional<DependencyShape> shape_of(const Dependency& d, const ProgramIndex& ix) {
  const auto p = ix.instr(d.producer), c = ix.instr(d.consumer);
  if (!p || !c) return std::nullopt;
  DependencyShape out;
  out.producer = *p;
  out.consumer = *c;
  out.producer_engine = ix.instrs[*p].engine;
  out.consumer_engine = ix.instrs[*c].engine;
  out.P = ix.instrs[*p].parent;
  out.S = ix.common(out.P, ix.instrs[*c].parent);
  out.common = ix.path(out.S);
  out.whole_from = out.common.size();
  for (std::size_t j = 0; j < out.common.size(); ++j) {
    const auto& name = ix.loops[out.common[j]].name;
    const auto it = d.distance.find(name);
    out.distance.push_back(it == d.distance.end() ? 0 : it->second);
    if (d.every.count(name) && out.whole_from == out.common.size()) out.whole_from = j;
  }
  return out;
}

}  // namespace syncbisim::model
