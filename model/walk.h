#pragma once
// Visiting every per-engine stream of a statement tree, through loops and both branches of
// conds, in tree order. Many tools need exactly this walk; it lives here once.
#include <variant>
#include <vector>

#include "model/program.h"

namespace syncbisim::model {

template <class Body, class F>
void for_each_stream(Body& body, F&& f) {
  for (auto& stmt : body) {
    if (auto* b = std::get_if<Block>(&stmt.node)) {
      for (auto& s : b->streams) f(s);
    } else if (auto* l = std::get_if<Loop>(&stmt.node)) {
      for_each_stream(l->body, f);
    } else {
      auto& c = std::get<Cond>(stmt.node);
      for_each_stream(c.then_body, f);
      for_each_stream(c.else_body, f);
    }
  }
}

}  // namespace syncbisim::model
