#include "generators/footprint_gen.h"

#include <map>
#include <string>
#include <utility>

#include "generators/places.h"
#include "generators/sized.h"
#include "generators/swarm.h"
#include "model/walk.h"

namespace syncbisim::generators {

namespace {

model::Subscript subscript_of(const FootprintPick& pick, const InstrPlace& at, std::uint32_t extent) {
  using model::IndexExpr;
  using model::IndexOp;
  const std::size_t loops = at.loops.size() - 1;  // without @top
  const std::uint32_t form = pick.subscript % 5;
  if (form == 4) return model::IndexRange{};  // the whole dimension
  if (form == 0 || loops == 0) return model::IndexPoint{IndexExpr::constant(pick.subscript % extent)};
  const auto i = IndexExpr::loop(at.loops[1 + pick.loop % loops]);
  if (form == 1) return model::IndexPoint{i};
  if (form == 2) return model::IndexPoint{IndexExpr::binary(IndexOp::Add, i, IndexExpr::constant(1))};
  return model::IndexPoint{IndexExpr::binary(IndexOp::Mod, i, IndexExpr::constant(2))};
}

}  // namespace

void attach_footprints(model::Program& p, const std::vector<FootprintPick>& picks, std::uint32_t buffers,
                       std::uint32_t max_trip) {
  const std::uint32_t extent = max_trip + 1;  // a loop index is at most max_trip - 1, so i + 1 fits
  for (std::uint32_t b = 0; b < buffers; ++b)
    p.buffers.push_back(model::Buffer{"b" + std::to_string(b), model::Memory::Sbuf, {extent}, ""});
  const auto places = instr_places(p);
  if (places.empty() || buffers == 0) return;
  std::map<std::string, model::Footprint> footprints;
  for (const auto& pick : picks) {
    const auto& at = places[pick.instr % places.size()];
    model::Access a;
    a.buffer = "b" + std::to_string(pick.buffer % buffers);
    a.index.push_back(subscript_of(pick, at, extent));
    static constexpr model::AccessKind kKinds[] = {model::AccessKind::Read, model::AccessKind::Read,
                                                   model::AccessKind::Write, model::AccessKind::Write,
                                                   model::AccessKind::Accumulate};
    footprints[at.id].of(kKinds[pick.kind % 5]).push_back(std::move(a));
  }
  model::for_each_stream(p.body, [&](model::Stream& s) {
    for (auto& item : s.items)
      if (auto* in = std::get_if<model::Instr>(&item))
        if (auto it = footprints.find(in->id); it != footprints.end()) in->footprint = it->second;
  });
}

rc::Gen<model::Program> gen_footprint_spec(SpecGenOptions base) {
  base.conds = false;
  base.max_deps = 0;
  base.divergent = false;
  const auto pick = rc::gen::apply(
      [](std::uint32_t i, std::uint32_t k, std::uint32_t b, std::uint32_t s, std::uint32_t l) {
        return FootprintPick{i, k, b, s, l};
      },
      rc::gen::inRange<std::uint32_t>(0, 1000), rc::gen::inRange<std::uint32_t>(0, 5),
      rc::gen::inRange<std::uint32_t>(0, 3), rc::gen::inRange<std::uint32_t>(0, 5),
      rc::gen::inRange<std::uint32_t>(0, 3));
  const std::uint32_t max_trip = base.max_trip;
  return rc::gen::apply(
      [max_trip](model::Program p, std::uint32_t buffers, std::vector<FootprintPick> picks) {
        attach_footprints(p, picks, buffers, max_trip);
        return p;
      },
      gen_swarm_spec(base), rc::gen::inRange<std::uint32_t>(1, 4), bounded_vector(2, 12, pick));
}

}  // namespace syncbisim::generators
