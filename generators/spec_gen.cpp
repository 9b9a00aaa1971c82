#include "generators/spec_gen.h"

#include <algorithm>
#include <utility>

#include "generators/dep_gen.h"
#include "generators/places.h"
#include "generators/sized.h"
#include "generators/slots.h"
#include "generators/tree_gen.h"

namespace syncbisim::generators {

using model::Stmt;

rc::Gen<std::vector<std::string>> gen_engine_names(std::uint32_t min_engines, std::uint32_t max_engines) {
  static constexpr const char* kPaper[] = {"PE", "ACT", "DVE", "POOL", "SP"};
  min_engines = std::clamp<std::uint32_t>(min_engines, 1, 5);
  max_engines = std::clamp<std::uint32_t>(max_engines, min_engines, 5);
  return rc::gen::apply(
      [](bool paper_style, std::uint32_t n) {
        std::vector<std::string> names;
        for (std::uint32_t i = 0; i < n; ++i) names.push_back(paper_style ? kPaper[i] : "E" + std::to_string(i));
        return names;
      },
      rc::gen::arbitrary<bool>(), rc::gen::inRange<std::uint32_t>(min_engines, max_engines + 1));
}

rc::Gen<std::map<std::string, std::string>> gen_extras() {
  // Values are written the way nlohmann::json::dump() writes them, so a reader that parses and
  // re-dumps them gives back the same text.
  const auto key = rc::gen::element<std::string>("op", "latency", "unit", "bytes", "note");
  const auto value =
      rc::gen::element<std::string>("\"dma_load\"", "\"matmul\"", "120", "0", "-3", "1.5", "true", "false", "null",
                                    "[1,2]", "{\"a\":1,\"b\":[]}", "\"a b\"", "\"q\\\"x\"", "[]", "{}");
  const auto entries = bounded_vector(1, 3, rc::gen::pair(key, value));
  auto some = rc::gen::map(entries, [](std::vector<std::pair<std::string, std::string>> kv) {
    return std::map<std::string, std::string>(kv.begin(), kv.end());
  });
  return weighted_one_of<std::map<std::string, std::string>>(
      {{4, rc::gen::just(std::map<std::string, std::string>{})}, {1, some}});
}

namespace {

rc::Gen<model::Item> spec_item(const SpecGenOptions& o) {
  if (!o.extras) return rc::gen::just(model::Item{model::Instr{}});
  return rc::gen::map(gen_extras(), [](std::map<std::string, std::string> extra) {
    model::Instr in;
    in.extra = std::move(extra);
    return model::Item{std::move(in)};
  });
}

}  // namespace

rc::Gen<model::Program> gen_spec(SpecGenOptions o) {
  o.min_engines = std::clamp<std::uint32_t>(o.min_engines, 1, 5);
  o.max_engines = std::clamp<std::uint32_t>(o.max_engines, o.min_engines, 5);
  DepMode mode = o.deps;
  mode.max_trip = o.max_trip;
  const TreeShape shape{o.max_engines, o.max_depth, o.max_trip, o.max_top_stmts, o.max_body_stmts,
                        o.max_items,   o.divergent, false,      o.conds,         o.trips, o.block_weight};
  // Engines first, then the tree, then dependencies: the order RapidCheck shrinks them in.
  return rc::gen::apply(
      [mode](std::vector<std::string> engines, std::vector<Stmt> body, std::vector<DepPick> picks) {
        model::Program p;
        p.kind = model::ProgramKind::Spec;
        p.engines = std::move(engines);
        p.body = std::move(body);
        resolve_engine_slots(p);
        model::normalize(p);
        assign_ids(p);
        p.deps = resolve_deps(instr_places(p), picks, mode, mode.live ? loop_reach(p) : std::map<std::string, LoopReach>{});
        if (mode.live) raise_trips(p);
        return p;
      },
      gen_engine_names(o.min_engines, o.max_engines), gen_tree(shape, spec_item(o)),
      bounded_vector(0, static_cast<int>(o.max_deps), gen_dep_pick()));
}

SpecGenOptions checkable_spec_options() {
  SpecGenOptions o;
  o.min_engines = 2;  // synchronization needs two engines
  o.max_engines = 3;
  o.max_depth = 2;
  o.max_trip = 3;
  o.max_top_stmts = 4;
  o.max_body_stmts = 3;
  o.max_items = 2;
  o.max_deps = 6;
  o.deps.acyclic = true;
  o.divergent = false;
  o.extras = false;
  return o;
}

}  // namespace syncbisim::generators
