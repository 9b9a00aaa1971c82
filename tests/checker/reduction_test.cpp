// The reductions of docs/checker.md are sound: with and without them the checker gives the same
// verdict and the same set of (kind, engine, instruction) violations. Impls here are random
// synchronizations of random specs (constant waits, random signals, barriers with and without
// reset lists, at the start or anywhere in the streams), allocations with barriers (the baseline,
// the fallback of non-allocatable specs) and their mutants, so all verdicts occur: bisimilar,
// over-, under-synchronized, deadlocks.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "allocator/allocate.h"
#include "analysis/correspondence.h"
#include "check_support.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "generators/describe.h"
#include "generators/mutations.h"
#include "generators/spec_gen.h"
#include "model/index.h"
#include "model/walk.h"
#include "random_pairs.h"
#include "statespace/state_codec.h"
#include "support/generated_pairs.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;

namespace {

using test::gen_random_impl;
using test::gen_small_pair;

using Key = std::tuple<int, semantics::EngineId, int>;

std::set<Key> keys(const checker::CheckResult& r) {
  std::set<Key> out;
  for (const auto& v : r.violations) out.insert({static_cast<int>(v.kind), v.engine, v.instr ? int(*v.instr) : -1});
  return out;
}

// Barriers anywhere (docs/checker.md "Reductions": an engine draining toward a barrier): in one to
// three random blocks, a barrier at a random place of each engine's stream (an engine without a
// stream there gets one; now and then one engine is left out, which deadlocks the others), resetting
// nothing, s0 or every semaphore. For an `allocation` (which has no s0) nothing three times in
// four, else every semaphore, and the barrier goes to the end of a stream half the time and to its
// start a quarter (where the fallback puts its barriers, and where an engine drains its last
// instructions toward them).
void add_barriers(model::Program& impl, bool allocation = false) {
  std::vector<model::Block*> blocks;
  std::function<void(std::vector<model::Stmt>&)> collect = [&](std::vector<model::Stmt>& body) {
    for (auto& stmt : body) {
      if (auto* b = std::get_if<model::Block>(&stmt.node)) blocks.push_back(b);
      else if (auto* l = std::get_if<model::Loop>(&stmt.node)) collect(l->body);
      else {
        auto& c = std::get<model::Cond>(stmt.node);
        collect(c.then_body);
        collect(c.else_body);
      }
    }
  };
  collect(impl.body);
  if (blocks.empty()) return;
  const auto rounds = *rc::gen::inRange(1, 4);
  for (int r = 0; r < rounds; ++r) {
    auto& block = *blocks[*rc::gen::inRange<std::size_t>(0, blocks.size())];
    // 0: nothing, 1: s0, 2: every semaphore.
    const auto reset = !allocation ? *rc::gen::inRange(0, 3) : (*rc::gen::inRange(0, 4) == 0 ? 2 : 0);
    const model::Barrier bar{reset == 0   ? std::optional<std::vector<std::string>>{std::vector<std::string>{}}
                             : reset == 1 ? std::optional<std::vector<std::string>>{{"s0"}}
                                          : std::nullopt,
                             {}};
    const auto left_out = *rc::gen::inRange<std::size_t>(0, 4 * impl.engines.size());
    for (std::size_t e = 0; e < impl.engines.size(); ++e) {
      if (e == left_out) continue;
      auto it = std::find_if(block.streams.begin(), block.streams.end(),
                             [&](const model::Stream& st) { return st.engine == impl.engines[e]; });
      if (it == block.streams.end()) {
        block.streams.push_back(model::Stream{impl.engines[e], {bar}});
        continue;
      }
      const auto n = it->items.size();
      const auto place = allocation ? *rc::gen::inRange(0, 4) : 3;
      const auto at = place < 2 ? n : place == 2 ? 0 : *rc::gen::inRange<std::size_t>(0, n + 1);
      it->items.insert(it->items.begin() + static_cast<std::ptrdiff_t>(at), bar);
    }
  }
  model::normalize(impl);
}

// Inside a property: with and without the reductions (and commit fusion, which goes with them)
// the checker gives the same verdict and the same set of (kind, engine, instruction)
// violations, whenever both searches complete within `max_states`.
void modes_agree(const model::Program& spec, const model::Program& impl, std::uint64_t max_states) {
  checker::CheckResult results[2];
  for (int reduce = 0; reduce < 2; ++reduce) {
    auto pair = checker::ProgramPair::make(spec, impl, semantics::Options{reduce == 1});
    RC_ASSERT(pair.ok());
    checker::CheckOptions o;
    o.reduction = reduce == 1;
    o.max_states = max_states;
    results[reduce] = checker::check((*pair)->lockstep(), o);
  }
  RC_PRE(results[0].exhaustive && results[1].exhaustive);
  const auto full = keys(results[0]), reduced = keys(results[1]);
  if (results[0].verdict != results[1].verdict || full != reduced) {
    std::string missed, extra;
    for (const auto& [kind, engine, instr] : full)
      if (!reduced.count({kind, engine, instr}))
        missed += " (" + std::to_string(kind) + ", E" + std::to_string(engine) + ", I" + std::to_string(instr) + ")";
    for (const auto& [kind, engine, instr] : reduced)
      if (!full.count({kind, engine, instr}))
        extra += " (" + std::to_string(kind) + ", E" + std::to_string(engine) + ", I" + std::to_string(instr) + ")";
    RC_FAIL(std::string("unreduced: ") + checker::to_string(results[0].verdict) +
            ", reduced: " + checker::to_string(results[1].verdict) + "; missed by the reduced search:" + missed +
            "; only in the reduced search:" + extra + "\nspec: " + generators::describe(spec) +
            "\nimpl: " + generators::describe(impl));
  }
  RC_ASSERT(results[1].states <= results[0].states);
  RC_CLASSIFY(results[0].verdict == checker::Verdict::Bisimilar, "bisimilar");
  RC_CLASSIFY(results[0].verdict == checker::Verdict::UnderSynchronized, "under");
  RC_CLASSIFY(results[0].verdict == checker::Verdict::OverSynchronized, "over");
  RC_CLASSIFY(results[0].verdict == checker::Verdict::SpecDeadlock, "spec-deadlock");
}

// Inside a property: the explorer without reductions reaches exactly the states and takes
// exactly the transitions of test::plain_search, when that is small enough to run.
void agrees_with_plain_search(const semantics::Lockstep& both) {
  const auto plain = test::plain_search(both, 20000);
  RC_CLASSIFY(plain.has_value(), "compared");
  if (!plain) return;  // too large to search plainly here
  checker::CheckOptions o;
  o.reduction = false;
  const auto r = checker::check(both, o);
  RC_ASSERT(r.exhaustive);
  RC_ASSERT(r.states == plain->states);
  RC_ASSERT(r.transitions == plain->transitions);
}

}  // namespace

TEST_CASE("reductions keep verdicts and violations on random synchronizations of random programs") {
  test::rc_check(
      "reduced == unreduced",
      [] {
        generators::SpecGenOptions opt{.max_engines = 3, .max_trip = 3, .max_top_stmts = 4, .max_body_stmts = 3};
        const auto spec = *generators::gen_spec(opt);
        const auto impl = *gen_random_impl(spec);
        const auto six = model::ProgramIndex::build(spec);
        const auto iix = model::ProgramIndex::build(impl);
        RC_ASSERT(six.ok());
        RC_ASSERT(iix.ok());
        RC_ASSERT(analysis::check_correspondence(spec, *six, impl, *iix).ok());
        const auto scode = semantics::compile(spec, *six);
        const auto icode = semantics::compile(impl, *iix, &*six);
        checker::CheckResult results[2];
        for (int reduce = 0; reduce < 2; ++reduce) {
          const semantics::Options sem{reduce == 1};
          const semantics::SpecSystem ss(scode, sem);
          const semantics::ImplSystem is(icode, sem);
          const semantics::Lockstep both(ss, is);
          checker::CheckOptions o;
          o.reduction = reduce == 1;
          o.max_states = 300000;
          results[reduce] = checker::check(both, o);
        }
        RC_PRE(results[0].exhaustive && results[1].exhaustive);
        RC_ASSERT(results[0].verdict == results[1].verdict);
        RC_ASSERT(keys(results[0]) == keys(results[1]));
        RC_ASSERT(results[1].states <= results[0].states);
        RC_CLASSIFY(results[0].verdict == checker::Verdict::Bisimilar, "bisimilar");
        RC_CLASSIFY(results[0].verdict == checker::Verdict::UnderSynchronized, "under");
        RC_CLASSIFY(results[0].verdict == checker::Verdict::OverSynchronized, "over");
        RC_CLASSIFY(results[0].verdict == checker::Verdict::SpecDeadlock, "spec-deadlock");
      },
      300);
}

// Barriers anywhere, not only at the start (where nothing is in flight): engines drain toward them
// while others have arrived (docs/checker.md "Reductions", 2). Random signals make most
// retirements observed, so this property alone rarely meets the case the barrier condition of 2
// is for; the property on exact allocations below does.
TEST_CASE("reductions keep verdicts and violations with barriers anywhere in the streams") {
  test::rc_check(
      "reduced == unreduced, barriers anywhere",
      [] {
        generators::SpecGenOptions opt{.max_engines = 3, .max_trip = 3, .max_top_stmts = 4, .max_body_stmts = 3};
        const auto spec = *generators::gen_spec(opt);
        auto impl = *gen_random_impl(spec);
        add_barriers(impl);
        modes_agree(spec, impl, 300000);
      },
      300);
}

// Allocations with barriers: the baseline (a barrier before every loop and at the end of every
// iteration) and the fallback of the other strategies for dependencies outside paper §5.2 (a
// barrier resetting nothing), on specs of every shape, and now and then one of their mutants
// (a wait, a signal or a barrier dropped, a threshold changed...).
TEST_CASE("reductions keep verdicts and violations on allocations with barriers and their mutants") {
  test::rc_check(
      "reduced == unreduced, allocations",
      [] {
        generators::SpecGenOptions opt{
            .max_engines = 3, .max_trip = 3, .max_top_stmts = 4, .max_body_stmts = 3, .max_deps = 5, .extras = false};
        const auto spec = test::gen_indexed_spec(opt);
        const auto impl = test::gen_allocation(spec, 1.0 / 3).impl;
        bool barrier = false;
        model::for_each_stream(impl.body, [&](const model::Stream& st) {
          for (const auto& item : st.items) barrier = barrier || std::holds_alternative<model::Barrier>(item);
        });
        RC_CLASSIFY(barrier, "with barriers");
        modes_agree(spec.program, impl, 300000);
      },
      300);
}

// Exact allocations with barriers added anywhere (resetting nothing, or now and then every
// semaphore): only producers signal, so the instructions an engine drains before a barrier are often
// unobserved, and the barrier holds back consumers whose producers on other engines retire just
// before it. This is where the reduced search once lost states (docs/checker.md "Reductions", 2:
// nested_forward_offset1's per-instruction allocation). Only about one pair in 150 meets it, hence
// 600 cases: with every unobserved retirement taken alone again, seeds 1, 2 and 5 falsify it at the
// 173rd, 75th and 52nd case (often a pair called bisimilar that is over-synchronized), but CTest's
// seed passes; under CTest the corpus test, the CLI case and reducer_test.cpp catch that fault.
TEST_CASE("reductions keep verdicts and violations on exact allocations with barriers added anywhere") {
  test::rc_check(
      "reduced == unreduced, allocations with barriers added",
      [] {
        // The specs of a fuzz campaign (fuzz/campaign.cpp), at sizes in the upper half
        // (RapidCheck's early sizes give near-empty specs, which have no dependency across a
        // barrier).
        const auto opt = generators::checkable_spec_options();
        const auto size = *rc::gen::inRange(50, 101);
        const auto spec = *rc::gen::resize(size, generators::gen_spec(opt));
        const auto ix = model::ProgramIndex::build(spec);
        RC_ASSERT(ix.ok());
        // Mostly per instruction: the other strategies signal from every instruction of a loop
        // body, so they leave no retirement unobserved.
        const auto strategy = *rc::gen::inRange(0, 4) > 0
                                  ? allocator::Strategy::PerInstruction
                                  : *rc::gen::element(allocator::Strategy::PerLoop, allocator::Strategy::PerEngine,
                                                      allocator::Strategy::Auto);
        const auto alloc = allocator::allocate(spec, *ix, allocator::Options{strategy, false});
        RC_PRE(alloc.ok());
        auto impl = alloc->impl;
        add_barriers(impl, true);
        modes_agree(spec, impl, 200000);
      },
      600);
}

TEST_CASE(
    "apply_touching settles exactly as apply does, names every engine it changed, and leaves no internal step, fused visible() agrees") {
  test::rc_check(
      "apply_touching == apply",
      [] {
        const auto pair = gen_small_pair();
        const auto& both = pair->lockstep();
        const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
        std::mt19937_64 rng(seed);
        auto s = both.initial();
        RC_ASSERT(both.settled(s));
        std::vector<semantics::Step> steps;
        for (int n = 0; n < 200; ++n) {
          steps.clear();
          both.visible(s, steps);
          if (steps.empty()) break;
          // The explorer's fused call finds the same steps and the same mismatches.
          std::vector<semantics::Step> fused_steps;
          std::vector<semantics::Mismatch> fused;
          both.visible(s, fused_steps, &fused);
          RC_ASSERT(fused_steps == steps);
          const auto separate = both.mismatches(s);
          RC_ASSERT(fused.size() == separate.size());
          for (std::size_t i = 0; i < fused.size(); ++i) {
            RC_ASSERT(fused[i].engine == separate[i].engine);
            RC_ASSERT(fused[i].instr == separate[i].instr);
            RC_ASSERT(fused[i].spec_can == separate[i].spec_can);
            RC_ASSERT(fused[i].impl_can == separate[i].impl_can);
          }
          for (const auto& st : steps) {
            auto full = s;
            both.apply(full, st);
            RC_ASSERT(both.settled(full));
            auto quick = s;
            const auto touched = both.apply_touching(quick, st);
            RC_ASSERT(quick == full);
            for (semantics::EngineId e = 0; e < pair->spec_code().engine_count(); ++e) {
              if (touched.contains(e)) continue;
              RC_ASSERT(quick.spec.control.engines[e] == s.spec.control.engines[e]);
              RC_ASSERT(quick.impl.control.engines[e] == s.impl.control.engines[e]);
              RC_ASSERT(quick.impl.regs[e] == s.impl.regs[e]);
            }
          }
          both.apply(s, steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(rng)]);
        }
      },
      200);
}

// The explorer stores states part by part, undoes each successor by decoding the parts it
// touched, and re-encodes only those: it must reach exactly the states (and take exactly the
// transitions) of a plain breadth-first search that keeps whole states and encodes all of each.
TEST_CASE("the explorer finds the states and transitions of a plain search over whole states") {
  test::rc_check(
      "explorer == plain BFS",
      [] {
        const auto pair = gen_small_pair(semantics::Options{*rc::gen::arbitrary<bool>()});
        agrees_with_plain_search(pair->lockstep());
      },
      150);
}

// The same on allocated programs of four and five engines, where several engines wait at a
// uniform range loop's head for one choice: the step memo's choice rounds and contexts
// (statespace/detail/step_memo.h) are at work on nearly every state.
TEST_CASE(
    "the explorer finds the plain search's states and transitions on allocated programs of four and five engines") {
  test::rc_check(
      "explorer == plain BFS, 4-5 engines",
      [] {
        generators::SpecGenOptions opt{
            .min_engines = 4, .max_engines = 5, .max_trip = 3, .max_top_stmts = 4, .deps = {.allocatable_only = true}};
        const auto spec = *generators::gen_spec(opt);
        const auto ix = model::ProgramIndex::build(spec);
        RC_ASSERT(ix.ok());
        const auto alloc = allocator::allocate(spec, *ix, allocator::Options{allocator::Strategy::Auto, false});
        RC_ASSERT(alloc.ok());
        auto pair = checker::ProgramPair::make(spec, alloc->impl, semantics::Options{*rc::gen::arbitrary<bool>()});
        RC_ASSERT(pair.ok());
        agrees_with_plain_search((*pair)->lockstep());
      },
      100);
}
