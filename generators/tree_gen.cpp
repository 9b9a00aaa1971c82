#include "generators/tree_gen.h"

#include <utility>

#include "generators/sized.h"
#include "generators/slots.h"
#include "generators/trip_gen.h"

namespace syncbisim::generators {

using model::Stmt;

namespace {

int as_int(std::uint32_t n) { return static_cast<int>(n); }

rc::Gen<Stmt> gen_block(const TreeShape& t, const rc::Gen<model::Item>& item) {
  const auto stream = rc::gen::apply(
      [](std::uint32_t slot, std::vector<model::Item> items) {
        return model::Stream{slot_name(slot), std::move(items)};
      },
      rc::gen::inRange<std::uint32_t>(0, t.engine_slots), bounded_vector(1, as_int(t.max_items), item));
  return rc::gen::map(bounded_vector(1, as_int(t.engine_slots), stream), [](std::vector<model::Stream> s) {
    model::Block b;
    b.streams = std::move(s);
    return Stmt{std::move(b)};
  });
}

rc::Gen<std::optional<model::TripRule>> gen_rule(const TreeShape& t, rc::Gen<model::Choice> choice) {
  auto rule = gen_trip_rule(std::move(choice), t.divergent, t.engine_slots);
  if (t.optional_trips) return optional_of(rule);
  return rc::gen::map(rule, [](model::TripRule r) { return std::optional<model::TripRule>(std::move(r)); });
}

rc::Gen<std::vector<Stmt>> gen_body(const TreeShape& t, const rc::Gen<model::Item>& item, std::uint32_t depth,
                                    std::uint32_t max_stmts);

// A statement inside a loop of nesting `depth` (@top is 0): loops and conds only while the
// depth allows one more level. Blocks come first so that shrinking turns loops into blocks.
rc::Gen<Stmt> gen_stmt(const TreeShape& t, const rc::Gen<model::Item>& item, std::uint32_t depth) {
  if (depth >= t.max_depth) return gen_block(t, item);
  const auto body = gen_body(t, item, depth + 1, t.max_body_stmts);
  auto loop = rc::gen::apply(
      [](std::optional<model::TripRule> trip, std::vector<Stmt> b) {
        model::Loop l;
        l.trip = std::move(trip);
        l.body = std::move(b);
        return Stmt{std::move(l)};
      },
      gen_rule(t, gen_loop_choice(t.max_trip, t.trips)), body);
  auto cond = rc::gen::apply(
      [](std::optional<model::TripRule> taken, std::vector<Stmt> then_body, std::vector<Stmt> else_body) {
        model::Cond c;
        c.taken = std::move(taken);
        c.then_body = std::move(then_body);
        c.else_body = std::move(else_body);
        return Stmt{std::move(c)};
      },
      gen_rule(t, gen_branch_choice(t.trips)), body, body);
  return weighted_one_of<Stmt>({{t.block_weight, gen_block(t, item)}, {2, loop}, {t.conds ? 1u : 0u, cond}});
}

rc::Gen<std::vector<Stmt>> gen_body(const TreeShape& t, const rc::Gen<model::Item>& item, std::uint32_t depth,
                                    std::uint32_t max_stmts) {
  return bounded_vector(0, as_int(max_stmts), gen_stmt(t, item, depth));
}

}  // namespace

rc::Gen<std::vector<Stmt>> gen_tree(const TreeShape& shape, const rc::Gen<model::Item>& item) {
  return gen_body(shape, item, 0, shape.max_top_stmts);
}

}  // namespace syncbisim::generators
