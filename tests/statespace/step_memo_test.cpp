// The explorer's memo of transition pieces (statespace/detail/step_memo.h): what its key holds and
// what it leaves out. That the explorer with the memo reaches exactly the states of a plain
// search is the property "explorer == plain breadth-first search" in reduction_test.cpp; builds
// with assertions also compare every hit with the piece run and encoded.
#include <doctest/doctest.h>

#include "checker/check_support.h"
#include "semantics/lockstep.h"
#include "statespace/detail/step_memo.h"

using namespace syncbisim;
using semantics::Step;
using semantics::StepKind;
using statespace::detail::LocalStep;
using statespace::detail::Piece;
using statespace::detail::SettleEngine;
using statespace::detail::StepMemo;

namespace {

// Three engines in a uniform range loop: whoever starts a trip first chooses it for all. The
// impl needs no synchronization (there is no dependency), so it is the same program.
constexpr const char* kBody = R"(
engines E0 E1 E2
loop A trip 1..2 {
  E0: P
  E1: C
  E2: Q
}
)";

struct MemoFixture {
  std::unique_ptr<test::Pair> pair =
      test::load_pair(std::string("syncbisim spec/1") + kBody, std::string("syncbisim impl/1") + kBody);
  semantics::SpecSystem spec{pair->spec_code()};
  semantics::ImplSystem impl{pair->impl_code()};
  semantics::Lockstep both{spec, impl};
  semantics::LockstepState start = both.initial();
  semantics::LoopId loop_a = *pair->spec_ix().loop("A");

  // `start` with engine e's trips of A counted as `n` on both sides (the memo reads them only).
  semantics::LockstepState with_trips(semantics::EngineId e, std::uint32_t n) const {
    auto s = start;
    s.spec.control.engines[e].trips_started[loop_a] = n;
    s.impl.control.engines[e].trips_started[loop_a] = n;
    return s;
  }
};

// Looks piece `p` up (its engine's part `part`, the global part `global`), requires it unknown,
// and remembers `after`, with ids `to_part` and `to_global`, as its outcome.
void learn(StepMemo& memo, const Piece& p, std::uint32_t part, std::uint32_t global,
           const semantics::LockstepState& after, std::uint32_t to_part, std::uint32_t to_global) {
  const auto key = memo.find(p, part, global);
  REQUIRE(key.known() == nullptr);
  memo.remember(key, after, to_part, to_global);
}

}  // namespace

TEST_CASE("step memo: a piece is known again under the same key, and not when another engine's trip count differs") {
  MemoFixture f;
  StepMemo memo(f.both);
  const Step choose_step{StepKind::Choose, 0, 2, f.loop_a};
  const Piece choose = LocalStep{choose_step};
  memo.at_state(f.start);
  memo.begin();
  auto after = f.start;
  f.both.apply_local(after, choose_step);
  CHECK(after.spec.control.engines[0].trips_started[f.loop_a] == 1);
  learn(memo, choose, 5, 9, after, 6, 10);

  memo.begin();
  const auto* known = memo.find(choose, 5, 9).known();
  REQUIRE(known != nullptr);
  CHECK(known->part == 6);
  CHECK(known->global == 10);
  memo.begin();
  CHECK(memo.find(choose, 5, 8).known() == nullptr);  // another global part
  memo.begin();
  CHECK(memo.find(LocalStep{Step{StepKind::Choose, 1, 2, f.loop_a}}, 5, 9).known() == nullptr);  // another engine

  // E2 has started a trip more: E0's choice would find a different `pending` base.
  memo.at_state(f.with_trips(2, 1));
  memo.begin();
  CHECK(memo.find(choose, 5, 9).known() == nullptr);
  // E0's own count is in its part, not in the context.
  memo.at_state(f.with_trips(0, 1));
  memo.begin();
  CHECK(memo.find(choose, 5, 9).known() != nullptr);
}

TEST_CASE("step memo: a commit or a retirement does not read the other engines' trip counts, an issue does") {
  MemoFixture f;
  StepMemo memo(f.both);
  const auto p = *f.pair->spec_ix().instr("P");
  const Piece retire = LocalStep{Step{StepKind::Retire, 0, p, 0}};
  const Piece issue = LocalStep{Step{StepKind::Issue, 0, p, 0}};
  memo.at_state(f.start);
  memo.begin();
  learn(memo, retire, 3, 4, f.start, 7, 4);
  memo.begin();
  learn(memo, issue, 3, 4, f.start, 8, 4);

  memo.at_state(f.with_trips(1, 2));
  memo.begin();
  const auto* known = memo.find(retire, 3, 4).known();
  REQUIRE(known != nullptr);
  CHECK(known->part == 7);
  memo.begin();
  CHECK(memo.find(issue, 3, 4).known() == nullptr);  // after an issue, loop control may start a trip
}

TEST_CASE("step memo: a piece after which its engine has arrived at a barrier is not remembered") {
  MemoFixture f;
  StepMemo memo(f.both);
  const Piece settle = SettleEngine{1};
  auto arrived = f.start;
  arrived.impl.arrived[1] = 1;
  memo.at_state(f.start);
  memo.begin();
  const auto first = memo.find(settle, 2, 3);
  REQUIRE(first.known() == nullptr);
  memo.remember(first, arrived, 2, 3);
  memo.begin();
  const auto again = memo.find(settle, 2, 3);
  CHECK(again.known() == nullptr);
  memo.remember(again, f.start, 2, 3);
  memo.begin();
  CHECK(memo.find(settle, 2, 3).known() != nullptr);
}

TEST_CASE("step memo: a piece's outcome carries its engine's new counts into the next piece's context") {
  MemoFixture f;
  StepMemo memo(f.both);
  const Step choose_step{StepKind::Choose, 0, 1, f.loop_a};
  const Piece choose = LocalStep{choose_step};
  const Piece settle = SettleEngine{1};
  auto after = f.start;
  f.both.apply_local(after, choose_step);  // E0 has started a trip of A
  memo.at_state(f.start);

  // A choice's transition: the choice, then E1 settles seeing E0's new count.
  memo.begin();
  learn(memo, choose, 1, 1, after, 2, 2);
  learn(memo, settle, 4, 2, after, 5, 2);

  // E1 settling in the state before the choice has another context.
  memo.begin();
  CHECK(memo.find(settle, 4, 2).known() == nullptr);
  // After the choice taken from the memo (and its counts, advance()), the context is the one
  // remembered with.
  memo.begin();
  const auto* chosen = memo.find(choose, 1, 1).known();
  REQUIRE(chosen != nullptr);
  CHECK(memo.find(settle, 4, 2).known() == nullptr);  // the choice's counts not taken yet
  memo.advance(0, *chosen);
  const auto* known = memo.find(settle, 4, 2).known();
  REQUIRE(known != nullptr);
  CHECK(known->part == 5);
}

TEST_CASE("step memo: full and without room to grow, it forgets what it knew") {
  MemoFixture f;
  auto keys = [&](StepMemo& memo, std::size_t n) {
    memo.at_state(f.start);
    for (std::uint32_t k = 0; k < n; ++k) {
      memo.begin();
      const auto key = memo.find(SettleEngine{0}, k, 0);
      if (key.known() == nullptr) memo.remember(key, f.start, k, 0);
    }
    memo.begin();
    return memo.find(SettleEngine{0}, 0, 0).known() != nullptr;
  };
  StepMemo tight(f.both);
  tight.budget(0);
  CHECK_FALSE(keys(tight, 5000));
  StepMemo roomy(f.both);
  roomy.budget(std::size_t{1} << 24);
  CHECK(keys(roomy, 5000));
  CHECK(roomy.bytes() > tight.bytes());
}

TEST_CASE("step memo: with more than six uniform range loops, choices are computed and other steps still remembered") {
  // Seven loops one after the other, an instruction in each; a choice's pieces would carry seven
  // counts, more than an outcome holds.
  std::string body = "engines E0 E1\n";
  for (int l = 0; l < 7; ++l)
    body +=
        "loop L" + std::to_string(l) + " trip 1..2 {\n  " + (l == 6 ? "E1: C" : "E0: P") + std::to_string(l) + "\n}\n";
  const auto pair = test::load_pair("syncbisim spec/1\n" + body, "syncbisim impl/1\n" + body);
  const semantics::SpecSystem spec(pair->spec_code());
  const semantics::ImplSystem impl(pair->impl_code());
  const semantics::Lockstep both(spec, impl);
  StepMemo memo(both);
  CHECK_FALSE(memo.follows_choices());
  const auto start = both.initial();
  memo.at_state(start);
  const Piece choose = LocalStep{Step{StepKind::Choose, 0, 1, *pair->spec_ix().loop("L0")}};
  const Piece issue = LocalStep{Step{StepKind::Issue, 0, *pair->spec_ix().instr("P0"), 0}};
  for (const auto& p : {choose, issue}) {
    memo.begin();
    learn(memo, p, 1, 2, start, 3, 2);
  }
  memo.begin();
  CHECK(memo.find(choose, 1, 2).known() == nullptr);
  memo.begin();
  CHECK(memo.find(issue, 1, 2).known() != nullptr);

  // And the explorer, memo and all, still finds the plain search's states and transitions.
  const auto plain = test::plain_search(both, 50000);
  REQUIRE(plain.has_value());
  checker::CheckOptions o;
  o.reduction = false;
  const auto r = checker::check(both, o);
  CHECK(r.states == plain->states);
  CHECK(r.transitions == plain->transitions);
}
