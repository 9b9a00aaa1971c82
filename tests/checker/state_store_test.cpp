// The exhaustive search's state stores (docs/checker.md "State storage"): their names, and the
// search over trees of pairs is the search over flat tuples (same states, transitions, violations
// and traces). The stores themselves are tested in tests/statespace/state_store_test.cpp.
#include <doctest/doctest.h>

#include <string>

#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "random_pairs.h"
#include "support/check_summary.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;

TEST_CASE("state store names: each parses back, and a bad one gets the message every front end prints") {
  for (const auto s : {checker::StateStore::Flat, checker::StateStore::Tree})
    CHECK(checker::parse_state_store(checker::to_string(s)) == s);
  CHECK(std::string(checker::to_string(checker::StateStore::Flat)) == "flat");
  CHECK(!checker::parse_state_store("Tree"));
  CHECK(!checker::parse_state_store(""));
  CHECK(checker::unknown_state_store("packed") == "unknown state store 'packed' (flat, tree)");
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
        o.state_store = checker::StateStore::Flat;
        const auto flat = checker::check(*pair, o);
        RC_CLASSIFY(!flat.violations.empty(), "violations");
        o.state_store = checker::StateStore::Tree;
        RC_ASSERT(test::summary(checker::check(*pair, o)) == test::summary(flat));
      },
      150);
}
