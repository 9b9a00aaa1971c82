#include "allocator/detail/shared_subexpressions.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace syncbisim::allocator::detail {

namespace {

// Every distinct subexpression of the pool as a small id: equal trees, equal ids (hash-consing).
// Counting by id instead of by the text key (rendering every subtree as text, three times) was
// most of the pass on a long block; texts are rendered only to order the candidates.
class Subexpressions {
 public:
  // The id of a leaf (a constant or a register), interned.
  std::uint32_t leaf(const Tree& t) {
    return t.op == model::ExprOp::Const ? leaf(consts_, t.value) : leaf(regs_, t.reg);
  }
  // The id of the operator node `op` over the subexpressions a and b, interned.
  std::uint32_t op(model::ExprOp op, std::uint32_t a, std::uint32_t b) {
    const auto [it, fresh] = ops_.emplace(pack(op, a, b), static_cast<std::uint32_t>(nodes_.size()));
    if (fresh) nodes_.push_back({a, b, true, 1 + nodes_[a].cost + nodes_[b].cost});
    return it->second;
  }
  // Ids interned before.
  std::uint32_t find_leaf(const Tree& t) const {
    return t.op == model::ExprOp::Const ? consts_.at(t.value) : regs_.at(t.reg);
  }
  std::uint32_t find_op(model::ExprOp op, std::uint32_t a, std::uint32_t b) const { return ops_.at(pack(op, a, b)); }
  struct Node {
    std::uint32_t lhs = 0, rhs = 0;
    bool binary = false;
    std::uint32_t cost = 0;  // operators in it
  };
  const Node& node(std::uint32_t id) const { return nodes_[id]; }
  std::size_t size() const { return nodes_.size(); }

 private:
  static std::uint64_t pack(model::ExprOp op, std::uint64_t a, std::uint64_t b) {
    // Ids below 2^30 (a region's wait values hold far fewer nodes); checked, not assumed.
    if (a >= (1u << 30) || b >= (1u << 30)) throw std::length_error("too many subexpressions in one region");
    return (static_cast<std::uint64_t>(op) << 60) | (a << 30) | b;
  }
  template <class Map, class Key>
  std::uint32_t leaf(Map& m, const Key& k) {
    const auto [it, fresh] = m.emplace(k, static_cast<std::uint32_t>(nodes_.size()));
    if (fresh) nodes_.push_back({});
    return it->second;
  }
  std::unordered_map<std::uint64_t, std::uint32_t> consts_;
  std::unordered_map<std::string, std::uint32_t> regs_;
  std::unordered_map<std::uint64_t, std::uint32_t> ops_;
  std::vector<Node> nodes_;
};

// Counts each operator node of t under its id; `one` keeps an occurrence of each.
std::uint32_t count(const Tree& t, Subexpressions& subs, std::vector<std::int64_t>& counts,
                    std::vector<const Tree*>& one) {
  if (!binary(t.op)) return subs.leaf(t);
  const auto a = count(t.kids[0], subs, counts, one);
  const auto b = count(t.kids[1], subs, counts, one);
  const auto id = subs.op(t.op, a, b);
  if (id >= counts.size()) {
    counts.resize(subs.size(), 0);
    one.resize(subs.size(), nullptr);
  }
  ++counts[id];
  one[id] = &t;
  return id;
}

// Every subexpression inside `id` (itself excluded) loses n occurrences.
void discount(const Subexpressions& subs, std::uint32_t id, std::int64_t n, std::vector<std::int64_t>& counts) {
  for (const auto k : {subs.node(id).lhs, subs.node(id).rhs}) {
    if (!subs.node(k).binary) continue;
    counts[k] -= n;  // counted before
    discount(subs, k, n, counts);
  }
}

// The outermost subexpressions of t that were shared read their registers. Returns t's id as it
// was (a rewritten kid inside a node replaced afterwards is dropped with it).
std::uint32_t rewrite(Tree& t, const Subexpressions& subs, const std::vector<const std::string*>& name_of, bool root) {
  if (!binary(t.op)) return subs.find_leaf(t);
  const auto a = rewrite(t.kids[0], subs, name_of, false);
  const auto b = rewrite(t.kids[1], subs, name_of, false);
  const auto id = subs.find_op(t.op, a, b);
  if (!root && name_of[id]) t = reg(*name_of[id]);
  return id;
}

}  // namespace

// Why one pass in a fixed order gives what the definition's repeated search gives: sharing a
// subexpression X (c occurrences) leaves every count unchanged except those of the
// subexpressions inside X, which lose c - 1 occurrences per copy in X; counts never grow. A
// subexpression Y that still occurs twice when X is picked costs more than X if it contains
// X, so it was picked before X: nothing inside a picked subexpression has been shared yet, its
// cost and key are those it had at the start, and the picks are the subexpressions occurring
// twice at the start, in the order (cost descending, key ascending), that still occur twice
// when their turn comes. Shared subexpressions never contain each other's earlier picks, so
// rewriting the outermost shared ones at the end gives every tree and value its final form.
Shared share(const std::vector<Tree*>& pool) {
  Subexpressions subs;
  std::vector<std::int64_t> counts;
  std::vector<const Tree*> one;
  for (const auto* t : pool) count(*t, subs, counts, one);
  counts.resize(subs.size(), 0);
  one.resize(subs.size(), nullptr);
  struct Candidate {
    std::uint32_t cost;
    std::string key;
    std::uint32_t id;
  };
  std::vector<Candidate> order;
  for (std::uint32_t id = 0; id < counts.size(); ++id)
    if (counts[id] >= 2) order.push_back({subs.node(id).cost, key(*one[id]), id});
  std::sort(order.begin(), order.end(), [](const Candidate& a, const Candidate& b) {
    return a.cost != b.cost ? a.cost > b.cost : a.key < b.key;
  });
  Shared out;
  std::vector<std::string> names;  // stable: reserved for every candidate
  names.reserve(order.size());
  std::vector<const std::string*> name_of(subs.size(), nullptr);
  for (const auto& c : order) {
    auto& n = counts[c.id];
    if (n < 2) continue;
    const auto& name = names.emplace_back("cs" + std::to_string(out.defs.size() + 1));
    out.defs.emplace_back(name, *one[c.id]);
    name_of[c.id] = &name;
    discount(subs, c.id, n - 1, counts);
    n = 1;  // the value of the new register
  }
  for (auto* t : pool) rewrite(*t, subs, name_of, false);
  for (auto& [n, d] : out.defs) rewrite(d, subs, name_of, true);
  return out;
}

}  // namespace syncbisim::allocator::detail
