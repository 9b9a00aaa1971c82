#include "model/program.h"

namespace syncbisim::model {

const Stream* Block::find(const std::string& engine) const {
  for (const auto& s : streams)
    if (s.engine == engine) return &s;
  return nullptr;
}

std::string then_loop(const std::string& cond_id) { return cond_id + ".then"; }
std::string else_loop(const std::string& cond_id) { return cond_id + ".else"; }

namespace {
void append_block(Block& into, Block&& from) {
  for (auto& s : from.streams) {
    Stream* target = nullptr;
    for (auto& t : into.streams)
      if (t.engine == s.engine) target = &t;
    if (!target) {
      into.streams.push_back(Stream{s.engine, {}});
      target = &into.streams.back();
    }
    if (target->items.empty()) {  // the usual case: the stream whole, not item by item
      target->items = std::move(s.items);
      continue;
    }
    target->items.reserve(target->items.size() + s.items.size());
    for (auto& item : s.items) target->items.push_back(std::move(item));
  }
}
}  // namespace

void normalize(std::vector<Stmt>& body) {
  // Iterative over siblings, recursive over depth: loaders bound the nesting depth.
  std::vector<Stmt> out;
  out.reserve(body.size());
  for (auto& stmt : body) {
    if (auto* b = std::get_if<Block>(&stmt.node)) {
      if (!out.empty())
        if (auto* prev = std::get_if<Block>(&out.back().node)) {
          append_block(*prev, std::move(*b));
          continue;
        }
      Block fresh;
      fresh.loc = b->loc;
      append_block(fresh, std::move(*b));
      out.push_back(Stmt{std::move(fresh)});
      continue;
    }
    if (auto* l = std::get_if<Loop>(&stmt.node)) normalize(l->body);
    if (auto* c = std::get_if<Cond>(&stmt.node)) {
      normalize(c->then_body);
      normalize(c->else_body);
    }
    out.push_back(std::move(stmt));
  }
  // Drop empty streams, then empty blocks.
  std::vector<Stmt> kept;
  kept.reserve(out.size());
  for (auto& stmt : out) {
    if (auto* b = std::get_if<Block>(&stmt.node)) {
      std::vector<Stream> streams;
      for (auto& s : b->streams)
        if (!s.items.empty()) streams.push_back(std::move(s));
      b->streams = std::move(streams);
      if (b->streams.empty()) continue;
    }
    kept.push_back(std::move(stmt));
  }
  body = std::move(kept);
}

void normalize(Program& p) { normalize(p.body); }

}  // namespace syncbisim::model
