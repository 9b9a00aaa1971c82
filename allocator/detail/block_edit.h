#pragma once
// Rewriting the items of every block of a program item by item, keeping each block's program
// order (model::Block::order) true: an item may become none or several of the same engine.
#include <utility>
#include <variant>
#include <vector>

#include "model/program.h"
#include "model/walk.h"

namespace syncbisim::allocator::detail {

// f(const std::string& engine, model::Item&& item, std::vector<model::Item>& out) appends what
// the item becomes to `out` (its stream's new items: no vector per item, a kernel has hundreds of
// thousands).
template <class F>
void rewrite_items(model::Block& b, F&& f) {
  const auto in_order = b.in_program_order();
  std::vector<model::Stream> streams;
  streams.reserve(b.streams.size());
  for (const auto& s : b.streams) {
    streams.push_back({s.engine, {}});
    streams.back().items.reserve(s.items.size());
  }
  std::vector<std::uint32_t> order;
  order.reserve(in_order.size());
  for (const auto& [si, ii] : in_order) {
    auto& out = streams[si].items;
    const auto before = out.size();
    f(b.streams[si].engine, std::move(b.streams[si].items[ii]), out);
    order.insert(order.end(), out.size() - before, si);
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
