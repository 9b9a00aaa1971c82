#include "allocator/detail/shared_subexpressions.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace syncbisim::allocator::detail {

namespace {

// What is known of one subexpression (by key): its live occurrences, one of them.
struct Seen {
  std::int64_t count = 0;
  const Tree* tree = nullptr;
};
using SeenTable = std::unordered_map<std::string, Seen>;

void count(const Tree& t, SeenTable& seen) {
  if (!binary(t.op)) return;
  auto& s = seen[key(t)];
  ++s.count;
  s.tree = &t;
  for (const auto& k : t.kids) count(k, seen);
}

// Every subexpression inside t (t excluded) loses n occurrences.
void discount(const Tree& t, std::int64_t n, SeenTable& seen) {
  for (const auto& k : t.kids) {
    if (!binary(k.op)) continue;
    seen.find(key(k))->second.count -= n;  // counted before
    discount(k, n, seen);
  }
}

// The outermost subexpressions of t that were shared read their registers.
void rewrite(Tree& t, const std::unordered_map<std::string, std::string>& name_of, bool root) {
  if (!binary(t.op)) return;
  if (!root)
    if (const auto it = name_of.find(key(t)); it != name_of.end()) {
      t = reg(it->second);
      return;
    }
  for (auto& k : t.kids) rewrite(k, name_of, false);
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
  SeenTable seen;
  for (const auto* t : pool) count(*t, seen);
  struct Candidate {
    std::uint32_t cost;
    const std::string* key;
  };
  std::vector<Candidate> order;
  for (const auto& [k, s] : seen)
    if (s.count >= 2) order.push_back({cost(*s.tree), &k});
  std::sort(order.begin(), order.end(), [](const Candidate& a, const Candidate& b) {
    return a.cost != b.cost ? a.cost > b.cost : *a.key < *b.key;
  });
  Shared out;
  std::unordered_map<std::string, std::string> name_of;
  for (const auto& c : order) {
    auto& s = seen.at(*c.key);
    if (s.count < 2) continue;
    const auto name = "cs" + std::to_string(out.defs.size() + 1);
    out.defs.emplace_back(name, *s.tree);
    name_of.emplace(*c.key, name);
    discount(*s.tree, s.count - 1, seen);
    s.count = 1;  // the value of the new register
  }
  for (auto* t : pool) rewrite(*t, name_of, false);
  for (auto& [n, d] : out.defs) rewrite(d, name_of, true);
  return out;
}

}  // namespace syncbisim::allocator::detail
