#include "generators/swarm.h"

#include <algorithm>

namespace syncbisim::generators {

namespace {

// A feature on with probability `on` in 8.
rc::Gen<bool> feature(std::uint32_t on) {
  return rc::gen::map(rc::gen::inRange<std::uint32_t>(0, 8), [on](std::uint32_t x) { return x < on; });
}

}  // namespace

rc::Gen<SpecGenOptions> gen_swarm_options(SpecGenOptions base) {
  return rc::gen::apply(
      [base](bool conds, bool ranges, bool sequences, bool zero, std::uint32_t engines_pick, std::uint32_t shapes,
             std::uint32_t offset_pick, bool several, std::uint32_t depth_pick, std::uint32_t sharing, bool nesting, bool small, bool dead) {
        SpecGenOptions o = base;
        o.conds = base.conds && conds;
        o.trips.ranges = base.trips.ranges && ranges;
        o.trips.sequences = base.trips.sequences && sequences;
        o.trips.zero = base.trips.zero && zero;
        // Two engines half the time: fewer interleavings, so more of the draw is dependencies.
        o.max_engines = std::max(o.min_engines, std::min(base.max_engines, 2 + engines_pick));
        o.min_engines = std::min(o.min_engines, o.max_engines);
        // Producers in S, nested, or both (both twice as often).
        o.deps.producer_in_s = base.deps.producer_in_s && shapes != 1;
        o.deps.nested = base.deps.nested && shapes != 2;
        if (!o.deps.producer_in_s && !o.deps.nested) o.deps.producer_in_s = o.deps.nested = true;
        o.deps.max_offset = std::min(base.deps.max_offset, 1 + offset_pick);
        o.deps.several_per_consumer = base.deps.several_per_consumer || several;
        o.max_depth = std::min(base.max_depth, 1 + depth_pick);
        // Dependencies within one engine (program order plus a wait), across engines only, or both.
        o.deps.same_engine = base.deps.same_engine && sharing != 1;
        // Loops more often than blocks: deeper trees, more loop-carried dependencies.
        if (nesting) o.block_weight = 1;
        // Short bodies and one instruction per engine and block: the shapes with fewer states
        // around them, so a check ends sooner (the state count grows with every instruction).
        if (small) {
          o.max_top_stmts = std::min(o.max_top_stmts, 3u);
          o.max_body_stmts = std::min(o.max_body_stmts, 2u);
          o.max_items = 1;
        }
        // Some dead dependencies beside the live ones (a spec needs one live dependency to be
        // drawn at all: fuzz/campaign.h).
        o.deps.dead_picks = dead;
        return o;
      },
      feature(4), feature(5), feature(5), feature(2), rc::gen::inRange<std::uint32_t>(0, 2),
      rc::gen::inRange<std::uint32_t>(0, 4), rc::gen::inRange<std::uint32_t>(0, 2), feature(4),
      rc::gen::inRange<std::uint32_t>(0, 3), rc::gen::inRange<std::uint32_t>(0, 3), feature(4), feature(4), feature(3));
}

rc::Gen<model::Program> gen_swarm_spec(SpecGenOptions base) {
  return rc::gen::mapcat(gen_swarm_options(std::move(base)), [](SpecGenOptions o) { return gen_spec(o); });
}

}  // namespace syncbisim::generators
