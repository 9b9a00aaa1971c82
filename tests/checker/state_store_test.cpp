// The exhaustive search's state store (docs/checker.md "State storage"): the parent log gives back
// every parent it was given, the tables of pairs and the tree store give back every tuple under a
// dense id (also through growth and many near-equal tuples), and the search over trees of pairs is
// the search over flat tuples (same states, transitions, violations and traces).
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "checker/detail/parent_log.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/tree_states.h"
#include "random_pairs.h"
#include "support/check_summary.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;

TEST_CASE("parent log: every parent read back, across marks, long gaps and long runs") {
  for (const std::uint32_t seed : {1U, 2U, 3U}) {
    INFO("seed ", seed);
    std::mt19937 rng(seed);
    checker::detail::ParentLog log;
    std::vector<std::uint32_t> want{checker::detail::ParentLog::kNone};
    log.push_back(checker::detail::ParentLog::kNone);
    std::uint32_t parent = 0;
    for (int i = 0; i < 50000; ++i) {
      // Mostly small steps, sometimes a gap of hundreds (states without new children), sometimes a
      // run of one parent (a state with many).
      const auto r = rng() % 100;
      if (r < 60) parent += rng() % 3;
      else if (r < 65) parent += rng() % 700;
      want.push_back(parent);
      log.push_back(parent);
    }
    REQUIRE(log.size() == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) REQUIRE(log[k] == want[k]);
  }
}

TEST_CASE("pair table: ids are dense in first-insertion order, equal pairs share one, through growth") {
  checker::PairTable t;
  std::map<std::uint64_t, std::uint32_t> ids;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300000; ++i) {
    // Few distinct high halves and narrow low halves: many pairs share their hash's bits by chance.
    const std::uint64_t pair = (rng() % 50000) | (rng() % 4) << 32;
    const auto [id, fresh] = t.insert(pair);
    const auto it = ids.find(pair);
    if (it == ids.end()) {
      REQUIRE(fresh);
      REQUIRE(id == ids.size());
      ids.emplace(pair, id);
    } else {
      REQUIRE_FALSE(fresh);
      REQUIRE(id == it->second);
    }
  }
  CHECK(t.count() == ids.size());
  for (const auto& [pair, id] : ids) CHECK(t.pair(id) == pair);
  CHECK(t.bytes() >= t.count() * 12);  // the pairs and at least one slot each
}

TEST_CASE("tree states: every tuple width round-trips, ids as a flat set gives them") {
  for (const std::size_t width : {1U, 2U, 3U, 5U, 6U, 9U}) {
    INFO("width ", width);
    checker::TreeStates tree(width);
    checker::StateSet flat(width);
    std::mt19937 rng(static_cast<unsigned>(width));
    std::vector<std::uint32_t> t(width), back(width);
    for (int i = 0; i < 40000; ++i) {
      // Tuples near the last one (as a state's successors are), with words of few values.
      const std::size_t w = rng() % width;
      t[w] = rng() % 20;
      if (rng() % 4 == 0) t[width - 1] = rng() % 3;
      const auto a = tree.insert(t.data());
      const auto b = flat.insert(t.data());
      REQUIRE(a == b);
    }
    REQUIRE(tree.count() == flat.count());
    for (std::uint32_t id = 0; id < tree.count(); ++id) {
      tree.tuple(id, back.data());
      const std::uint32_t* want = flat.tuple(id);
      REQUIRE(std::vector<std::uint32_t>(want, want + width) == back);
    }
  }
}

TEST_CASE("tree states: the search over trees of pairs is the search over flat tuples") {
  test::rc_check(
      "compressed == flat",
      [] {
        const bool reduce = *rc::gen::arbitrary<bool>();
        const auto pair = test::gen_small_pair(semantics::Options{reduce});
        const std::uint64_t cap = *rc::gen::element<std::uint64_t>(20000, 20000, 20000, 1, 2, 5, 17, 60, 400);
        checker::CheckOptions o;
        o.reduction = reduce;
        o.max_states = cap;
        o.compress_states = false;
        const auto flat = checker::check(*pair, o);
        RC_CLASSIFY(!flat.violations.empty(), "violations");
        o.compress_states = true;
        RC_ASSERT(test::summary(checker::check(*pair, o)) == test::summary(flat));
      },
      150);
}
