// The reductions of docs/checker.md are sound: with and without them the checker gives the same
// verdict and the same set of (kind, engine, instruction) violations. Impls here are random
// synchronizations of random specs (constant waits, random signals, barriers with and without
// reset lists), so all verdicts occur: bisimilar, over-, under-synchronized, deadlocks.
#include <doctest/doctest.h>

#include <deque>
#include <memory>
#include <random>
#include <set>
#include <tuple>

#include "allocator/allocate.h"
#include "analysis/correspondence.h"
#include "check_support.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/state_codec.h"
#include "generators/spec_gen.h"
#include "model/index.h"
#include "model/walk.h"
#include "random_pairs.h"
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
        generators::SpecGenOptions opt;
        opt.max_engines = 3;
        opt.max_trip = 3;
        opt.max_top_stmts = 4;
        opt.max_body_stmts = 3;
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

TEST_CASE(
    "apply_touching settles exactly as apply does, names every engine it changed, and leaves no internal step; fused visible() agrees") {
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
// (checker/detail/step_memo.h) are at work on nearly every state.
TEST_CASE(
    "the explorer finds the plain search's states and transitions on allocated programs of four and five engines") {
  test::rc_check(
      "explorer == plain BFS, 4-5 engines",
      [] {
        generators::SpecGenOptions opt;
        opt.min_engines = 4;
        opt.max_engines = 5;
        opt.max_top_stmts = 4;
        opt.max_trip = 3;
        opt.allocatable_only = true;
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
