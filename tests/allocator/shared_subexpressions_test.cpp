// Common subexpressions of one region's wait values (allocator/detail/shared_subexpressions.h):
// the one-pass version against the definition it replaced, written out here the direct way
// (recount everything, pick the costliest repeated subexpression, replace it, again), on random
// pools with much in common.
#include <doctest/doctest.h>

#include <map>

#include "allocator/detail/shared_subexpressions.h"
#include "generators/expr_gen.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using allocator::detail::Tree;

namespace {

void reference_count(const Tree& t, std::map<std::string, std::pair<int, const Tree*>>& seen) {
  if (!allocator::detail::binary(t.op)) return;
  auto& s = seen[allocator::detail::key(t)];
  ++s.first;
  s.second = &t;
  for (const auto& k : t.kids) reference_count(k, seen);
}

void reference_replace(Tree& t, const std::string& k, const std::string& name) {
  if (!allocator::detail::binary(t.op)) return;
  if (allocator::detail::key(t) == k) {
    t = allocator::detail::reg(name);
    return;
  }
  for (auto& kid : t.kids) reference_replace(kid, k, name);
}

allocator::detail::Shared reference_share(const std::vector<Tree*>& pool) {
  allocator::detail::Shared out;
  for (;;) {
    std::map<std::string, std::pair<int, const Tree*>> seen;
    for (const auto* t : pool) reference_count(*t, seen);
    for (const auto& [n, d] : out.defs) reference_count(d, seen);
    const Tree* best = nullptr;
    std::string best_key;
    for (const auto& [k, s] : seen)
      if (s.first >= 2 && (!best || allocator::detail::cost(*s.second) > allocator::detail::cost(*best))) {
        best = s.second;
        best_key = k;
      }
    if (!best) return out;
    const Tree value = *best;
    const auto name = "cs" + std::to_string(out.defs.size() + 1);
    for (auto* t : pool) reference_replace(*t, best_key, name);
    for (auto& [n, d] : out.defs) reference_replace(d, best_key, name);
    out.defs.emplace_back(name, value);
  }
}

// A tree over a few shared parts, registers and small constants, `depth` operators deep at most.
rc::Gen<model::Expr> gen_over(const std::vector<model::Expr>& parts, int depth) {
  using model::Expr;
  using model::ExprOp;
  const auto leaf = rc::gen::weightedOneOf<Expr>(
      {{4, rc::gen::elementOf(parts)},
       {1, rc::gen::map(rc::gen::inRange(0, 3), [](int c) { return Expr::constant(static_cast<std::uint64_t>(c)); })},
       {1, rc::gen::map(rc::gen::element<std::string>("rA", "rB"), &Expr::reg)}});
  if (depth == 0) return leaf;
  return rc::gen::oneOf(leaf, rc::gen::apply([](ExprOp op, Expr a, Expr b) { return Expr::binary(op, a, b); },
                                             rc::gen::element(ExprOp::Add, ExprOp::Sub, ExprOp::Mul, ExprOp::IsGt),
                                             gen_over(parts, depth - 1), gen_over(parts, depth - 1)));
}

}  // namespace

TEST_CASE("shared subexpressions: one pass picks what the repeated search picks (property)") {
  test::rc_check("share == the repeated costliest-first search", [] {
    // Shared parts with an operator each (a lone register or constant is never shared).
    const auto parts = *rc::gen::container<std::vector<model::Expr>>(
        *rc::gen::inRange(1, 5),
        rc::gen::apply(
            [](model::ExprOp op, model::Expr a, model::Expr b) { return model::Expr::binary(op, a, b); },
            rc::gen::element(model::ExprOp::Add, model::ExprOp::Sub, model::ExprOp::Mul, model::ExprOp::IsGt),
            generators::gen_expr(1), generators::gen_expr(1)));
    const auto exprs = *rc::gen::container<std::vector<model::Expr>>(*rc::gen::inRange(0, 24), gen_over(parts, 2));
    std::vector<Tree> mine, theirs;
    for (const auto& e : exprs) {
      mine.push_back(allocator::detail::tree_of(e));
      RC_ASSERT(allocator::detail::key(mine.back()) == e.to_string());  // the key is the text
    }
    theirs = mine;
    std::vector<Tree*> mine_pool, their_pool;
    for (auto& t : mine) mine_pool.push_back(&t);
    for (auto& t : theirs) their_pool.push_back(&t);
    const auto got = allocator::detail::share(mine_pool);
    const auto want = reference_share(their_pool);
    RC_TAG(want.defs.size() < 2 ? "0 or 1 shared" : "2+ shared");
    RC_ASSERT(got.defs.size() == want.defs.size());
    for (std::size_t i = 0; i < want.defs.size(); ++i) {
      RC_ASSERT(got.defs[i].first == want.defs[i].first);
      RC_ASSERT(allocator::detail::key(got.defs[i].second) == allocator::detail::key(want.defs[i].second));
    }
    for (std::size_t i = 0; i < mine.size(); ++i)
      RC_ASSERT(allocator::detail::key(mine[i]) == allocator::detail::key(theirs[i]));
  });
}

TEST_CASE("shared subexpressions: the costliest repeated part first, then what it leaves repeated") {
  using model::Expr;
  using model::ExprOp;
  const auto m = Expr::binary(ExprOp::IsGt, Expr::reg("rh"), Expr::constant(1));
  const auto x = Expr::binary(ExprOp::Mul, m, Expr::binary(ExprOp::Mul, Expr::constant(2), Expr::reg("r")));
  // x twice, m a third time on its own: x becomes cs1, and m (now in cs1 and the third value) cs2.
  std::vector<Tree> trees{allocator::detail::tree_of(Expr::binary(ExprOp::Sub, x, Expr::constant(1))),
                          allocator::detail::tree_of(Expr::binary(ExprOp::Sub, x, Expr::constant(2))),
                          allocator::detail::tree_of(Expr::binary(ExprOp::Add, m, Expr::reg("q")))};
  const auto s = allocator::detail::share({&trees[0], &trees[1], &trees[2]});
  REQUIRE(s.defs.size() == 2);
  CHECK(allocator::detail::key(s.defs[0].second) == "cs2 * (2 * r)");
  CHECK(allocator::detail::key(s.defs[1].second) == "isgt(rh, 1)");
  CHECK(allocator::detail::key(trees[0]) == "cs1 - 1");
  CHECK(allocator::detail::key(trees[2]) == "cs2 + q");
}
