#include "generators/impl_gen.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "generators/expr_gen.h"
#include "generators/places.h"
#include "generators/sized.h"
#include "generators/slots.h"
#include "generators/spec_gen.h"
#include "generators/tree_gen.h"
#include "model/walk.h"

namespace syncbisim::generators {

namespace {

using model::Item;

std::vector<std::string> semaphore_names(std::uint32_t n) {
  static constexpr const char* kNames[] = {"s0", "sA", "s_pe", "sem1", "s4", "s5", "s6", "s7"};
  std::vector<std::string> out;
  for (std::uint32_t i = 0; i < n; ++i) out.push_back(i < 8 ? kNames[i] : "s" + std::to_string(i));
  return out;
}

rc::Gen<Item> gen_item(const ImplGenOptions& o) {
  // Semaphores by slot, like engines: the declared list shrinks independently (slots.h).
  const auto sem = rc::gen::map(rc::gen::inRange<std::uint32_t>(0, std::max<std::uint32_t>(1, o.max_semaphores)),
                                [](std::uint32_t s) { return slot_name(s); });
  const auto operand =
      rc::gen::oneOf(rc::gen::map(gen_constant(), [](std::uint64_t v) { return model::Operand{v}; }),
                     rc::gen::map(gen_register(), [](std::string r) { return model::Operand{std::move(r)}; }));
  const auto wait = rc::gen::apply(
      [](std::string s, model::Operand ge) {
        return model::Wait{std::move(s), std::move(ge)};
      },
      sem, operand);
  const auto add = weighted_one_of<std::uint32_t>(
      {{6, rc::gen::inRange<std::uint32_t>(1, 4)},
       {1, rc::gen::element<std::uint32_t>(1000, std::numeric_limits<std::uint32_t>::max())}});
  const auto signal = rc::gen::apply(
      [](std::string s, std::uint32_t n) {
        return model::Signal{std::move(s), n};
      },
      sem, add);
  auto instr = rc::gen::apply(
      [](std::vector<model::Wait> waits, std::optional<model::Signal> sig) {
        model::Instr in;
        in.waits = std::move(waits);
        in.signal = std::move(sig);
        return Item{std::move(in)};
      },
      bounded_vector(0, 2, wait), optional_of(signal));
  auto regop = rc::gen::apply(
      [](std::string dst, model::Expr e) {
        return Item{model::RegOp{std::move(dst), std::move(e), {}}};
      },
      gen_register(), gen_expr(o.max_expr_depth));
  auto barrier = rc::gen::map(optional_of(bounded_vector(0, 3, sem)), [](std::optional<std::vector<std::string>> r) {
    model::Barrier b;
    b.reset = std::move(r);
    return Item{std::move(b)};
  });
  return weighted_one_of<Item>({{4, instr}, {3, regop}, {1, barrier}});
}

// Resolves semaphore slots against p.semaphores. With none declared, waits and signals go (they
// would name an undeclared semaphore) and reset lists become empty.
void resolve_item(Item& item, const std::vector<std::string>& sems) {
  if (auto* in = std::get_if<model::Instr>(&item)) {
    if (sems.empty()) {
      in->waits.clear();
      in->signal.reset();
      return;
    }
    for (auto& w : in->waits) w.sem = resolve_slot(w.sem, sems);
    if (in->signal) in->signal->sem = resolve_slot(in->signal->sem, sems);
  } else if (auto* b = std::get_if<model::Barrier>(&item); b && b->reset) {
    std::vector<std::string> names;
    if (!sems.empty())
      for (const auto& s : *b->reset) {
        auto name = resolve_slot(s, sems);
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
      }
    b->reset = std::move(names);
  }
}

void resolve_semaphores(std::vector<model::Stmt>& body, const std::vector<std::string>& sems) {
  model::for_each_stream(body, [&](model::Stream& s) {
    for (auto& item : s.items) resolve_item(item, sems);
  });
}

}  // namespace

rc::Gen<model::Program> gen_impl_shape(ImplGenOptions o) {
  o.min_engines = std::clamp<std::uint32_t>(o.min_engines, 1, 5);
  o.max_engines = std::clamp<std::uint32_t>(o.max_engines, o.min_engines, 5);
  const TreeShape shape{o.max_engines,    o.max_depth, o.max_trip, o.max_top_stmts,
                        o.max_body_stmts, o.max_items, true,       true};
  return rc::gen::apply(
      [](std::vector<std::string> engines, std::uint32_t n_sems, std::vector<model::Stmt> body) {
        model::Program p;
        p.kind = model::ProgramKind::Impl;
        p.engines = std::move(engines);
        p.semaphores = semaphore_names(n_sems);
        p.body = std::move(body);
        resolve_engine_slots(p);
        resolve_semaphores(p.body, p.semaphores);
        model::normalize(p);
        assign_ids(p);
        return p;
      },
      gen_engine_names(o.min_engines, o.max_engines), rc::gen::inRange<std::uint32_t>(0, o.max_semaphores + 1),
      gen_tree(shape, gen_item(o)));
}

}  // namespace syncbisim::generators
