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
  for (const auto l : out.common) {
    const auto it = d.distance.find(ix.loops[l].name);
    out.distance.push_back(it == d.distance.end() ? 0 : it->second);
  }
  return out;
}

}  // namespace syncbisim::model
