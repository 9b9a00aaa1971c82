#pragma once
// Rewriting the items of every block of a program item by item, keeping each block's program
// order (model::Block::order) true: an item may become none or several of the same engine.
#include <utility>
#include <variant>
#include <vector>

#include "model/program.h"
#include "model/walk.h"

namespace syncbisim::allocator::detail {

// f(const std::string& engine, model::Item&& item) -> std::vector<model::Item>
template <class F>
void rewrite_items(model::Block& b, F&& f) {
  const auto in_order = b.in_program_order();
  std::vector<model::Stream> streams;
  streams.reserve(b.streams.size());
  for (const auto& s : b.streams) streams.push_back({s.engine, {}});
  std::vector<std::uint32_t> order;
  order.reserve(in_order.size());
  for (const auto& [si, ii] : in_order)
    for (auto& item : f(b.streams[si].engine, std::move(b.streams[si].items[ii]))) {
      streams[si].items.push_back(std::move(item));
      order.push_back(si);
    }
  b.streams = std::move(streams);
  b.order = std::move(order);
}

template <class F>
void rewrite_items(std::vector<model::Stmt>& body, F&& f) {
  model::for_each_stmt(body, [&f](model::Stmt& st, const model::LoopPath&) {
    if (auto* b = std::get_if<model::Block>(&st.node)) rewrite_items(*b, f);
  });
}

}  // namespace syncbisim::allocator::detail
