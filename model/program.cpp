#include "model/program.h"

#include "model/walk.h"

namespace syncbisim::model {

const Stream* Block::find(const std::string& engine) const {
  for (const auto& s : streams)
    if (s.engine == engine) return &s;
  return nullptr;
}

std::string then_loop(const std::string& cond_id) { return cond_id + ".then"; }
std::string else_loop(const std::string& cond_id) { return cond_id + ".else"; }

std::vector<std::pair<std::uint32_t, std::uint32_t>> Block::in_program_order() const {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  if (order.empty()) {
    for (std::uint32_t s = 0; s < streams.size(); ++s)
      for (std::uint32_t i = 0; i < streams[s].items.size(); ++i) out.emplace_back(s, i);
    return out;
  }
  std::vector<std::uint32_t> next(streams.size(), 0);
  for (auto s : order)
    if (s < streams.size() && next[s] < streams[s].items.size()) out.emplace_back(s, next[s]++);
  return out;
}

bool Program::has_footprints() const {
  if (!buffers.empty()) return true;
  bool any = false;
  for_each_stream(body, [&](const Stream& st) {
    for (const auto& item : st.items)
      if (const auto* in = std::get_if<Instr>(&item); in && !in->footprint->empty()) any = true;
  });
  return any;
}

namespace {
// The program order of `b` as stream indices, one per item (Block::order spelled out).
std::vector<std::uint32_t> spelled_order(const Block& b) {
  std::vector<std::uint32_t> out;
  for (const auto& [s, i] : b.in_program_order()) out.push_back(s);
  return out;
}

// Empty when `order` is the streams one after another (the form normalize() keeps).
void canonical_order(Block& b) {
  std::size_t k = 0;
  bool plain = true;
  for (std::uint32_t s = 0; s < b.streams.size() && plain; ++s)
    for (std::size_t i = 0; i < b.streams[s].items.size(); ++i, ++k)
      if (k >= b.order.size() || b.order[k] != s) {
        plain = false;
        break;
      }
  if (plain && k == b.order.size()) b.order.clear();
}

// Is `b` in the form normalize() keeps, but for a plain order spelled out: each engine at most
// once, and an order (if any) naming each item once?
bool kept_form(const Block& b) {
  for (std::size_t i = 0; i < b.streams.size(); ++i)
    for (std::size_t j = i + 1; j < b.streams.size(); ++j)
      if (b.streams[i].engine == b.streams[j].engine) return false;
  if (b.order.empty()) return true;
  std::vector<std::size_t> named(b.streams.size(), 0);
  for (const auto s : b.order) {
    if (s >= b.streams.size()) return false;
    ++named[s];
  }
  for (std::size_t s = 0; s < b.streams.size(); ++s)
    if (named[s] != b.streams[s].items.size()) return false;
  return true;
}

void append_block(Block& into, Block&& from) {
  // The usual case, a block appended to nothing and already in the form kept: moved whole, its
  // order not spelled out again.
  if (into.streams.empty() && kept_form(from)) {
    into.streams = std::move(from.streams);
    into.order = std::move(from.order);
    canonical_order(into);
    return;
  }
  auto order = spelled_order(into);
  const auto from_order = spelled_order(from);
  std::vector<std::uint32_t> target_of(from.streams.size(), 0);
  for (std::uint32_t fi = 0; fi < from.streams.size(); ++fi) {
    auto& s = from.streams[fi];
    Stream* target = nullptr;
    for (std::uint32_t ti = 0; ti < into.streams.size(); ++ti)
      if (into.streams[ti].engine == s.engine) {
        target = &into.streams[ti];
        target_of[fi] = ti;
      }
    if (!target) {
      into.streams.push_back(Stream{s.engine, {}});
      target = &into.streams.back();
      target_of[fi] = static_cast<std::uint32_t>(into.streams.size() - 1);
    }
    if (target->items.empty()) {  // the usual case: the stream whole, not item by item
      target->items = std::move(s.items);
      continue;
    }
    target->items.reserve(target->items.size() + s.items.size());
    for (auto& item : s.items) target->items.push_back(std::move(item));
  }
  for (auto f : from_order) order.push_back(target_of[f]);
  into.order = std::move(order);
  canonical_order(into);
}

// Drops empty streams, renumbering the order's stream indices.
void drop_empty_streams(Block& b) {
  std::vector<std::uint32_t> renumber(b.streams.size(), 0);
  std::vector<Stream> streams;
  for (std::uint32_t s = 0; s < b.streams.size(); ++s) {
    renumber[s] = static_cast<std::uint32_t>(streams.size());
    if (!b.streams[s].items.empty()) streams.push_back(std::move(b.streams[s]));
  }
  for (auto& o : b.order) o = renumber[o];
  b.streams = std::move(streams);
  canonical_order(b);
}
}  // namespace

void normalize(std::vector<Stmt>& body) {
  // Bottom up, each list as it is rebuilt: a block appended after a block joins it.
  body = transform(std::move(body), [](Stmt&& stmt, std::vector<Stmt>& out) {
    auto* b = std::get_if<Block>(&stmt.node);
    if (!b) {
      out.push_back(std::move(stmt));
      return;
    }
    if (out.empty() || !std::holds_alternative<Block>(out.back().node)) {
      Block fresh;
      fresh.loc = b->loc;
      out.push_back(Stmt{std::move(fresh)});
    }
    append_block(std::get<Block>(out.back().node), std::move(*b));
  });
  // Then empty streams go, and the blocks left empty. No two blocks are left side by side: an
  // empty block was joined to the block before it, if any.
  for_each_body(body, [](std::vector<Stmt>& list) {
    for (auto& stmt : list)
      if (auto* b = std::get_if<Block>(&stmt.node)) drop_empty_streams(*b);
    std::erase_if(list, [](const Stmt& stmt) {
      const auto* b = std::get_if<Block>(&stmt.node);
      return b && b->streams.empty();
    });
  });
}

void normalize(Program& p) { normalize(p.body); }

}  // namespace syncbisim::model
