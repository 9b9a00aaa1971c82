#pragma once
// Test helper: every loop of a program runs one constant trip count on every engine (its rule's
// largest value, at most `cap`, at least 1), and conds take their first allowed branch. The
// timing model and unrolling both want that shape.
#include <algorithm>
#include <variant>

#include "model/program.h"

namespace syncbisim::test {

inline void make_constant(std::vector<model::Stmt>& body, std::uint32_t cap) {
  for (auto& s : body) {
    if (auto* l = std::get_if<model::Loop>(&s.node)) {
      std::uint32_t n = 1;
      if (l->trip) n = std::clamp(model::choice_max(l->trip->uniform), 1u, cap);
      l->trip = model::TripRule{model::ConstTrip{n}};
      make_constant(l->body, cap);
    } else if (auto* c = std::get_if<model::Cond>(&s.node)) {
      std::uint32_t b = 0;
      if (c->taken) b = model::choice_at(c->taken->uniform, 0, 0);
      c->taken = model::TripRule{model::ConstTrip{b}};
      make_constant(c->then_body, cap);
      make_constant(c->else_body, cap);
    }
  }
}

}  // namespace syncbisim::test
