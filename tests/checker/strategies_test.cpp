// Every allocation strategy and option on every spec of the corpus, checked exhaustively (issue
// 4, issue 16): the barrier-free strategies are bisimilar on every spec (beyond paper §5.2 with
// the extended closed forms) unless a decision says it gave up exactness or the paper's barrier
// fallback was asked for; the barrier baseline is safe; no strategy is ever under-synchronized. corpus/expected.jsonc
// says which specs are allocatable and which deadlock under their own control flow (paper §7.5).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "allocator/allocate.h"
#include "analysis/correspondence.h"
#include "check_support.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "support/allocator_variants.h"
#include "support/test_files.h"

using namespace syncbisim;

TEST_CASE("corpus: every strategy on every spec") {
  const auto root = test::source_dir();
  const auto expected = nlohmann::json::parse(test::read_text(root / "corpus/expected.jsonc"), nullptr, true, true);
  REQUIRE(expected.size() >= 15);
  REQUIRE(test::allocator_variants().size() >= 9);
  for (const auto& [rel, e] : expected.items()) {
    auto spec = formats::load_program_file((root / rel).string(), model::ProgramKind::Spec);
    REQUIRE_MESSAGE(spec.ok(), rel);
    const bool allocatable = e.at("allocatable").get<bool>();
    const bool spec_deadlock = e.at("spec_deadlock").get<bool>();
    for (const auto& [options, option_name] : test::allocator_variants()) {
      const auto strategy = options.strategy;
      const std::string what = rel + " with " + option_name;
      auto alloc = allocator::allocate(spec->program, spec->index, options);
      REQUIRE_MESSAGE(alloc.ok(), what, ": ", (alloc.ok() ? "" : alloc.error().to_string()));
      bool exact = true;
      for (const auto& d : alloc->decisions) exact = exact && d.exact;
      // Indexes, correspondence to the spec, compilation: any failure is an allocator bug.
      auto pair = checker::ProgramPair::make(spec->program, alloc->impl);
      REQUIRE_MESSAGE(pair.ok(), what, ": ", (pair.ok() ? "" : pair.error().to_string()));
      checker::CheckOptions o;
      o.max_states = 3000000;
      const auto r = checker::check((*pair)->lockstep(), o);
      const std::string verdict = checker::to_string(r.verdict);
      INFO(what, ": ", verdict, " after ", r.states, " states");
      CHECK_MESSAGE(r.exhaustive, what, " was not explored to the end");
      CHECK_MESSAGE(r.verdict != checker::Verdict::UnderSynchronized, what, " is under-synchronized");
      if (spec_deadlock) {
        CHECK_MESSAGE(r.verdict == checker::Verdict::SpecDeadlock, what, ": ", verdict);
      } else if (strategy == allocator::Strategy::Barrier || (!allocatable && (options.barrier_fallback || !exact))) {
        // The baseline (and a fallback barrier, or a decision that gave up exactness) may only
        // over-synchronize.
        CHECK_MESSAGE((r.verdict == checker::Verdict::OverSynchronized || r.verdict == checker::Verdict::Bisimilar),
                      what, ": ", verdict);
      } else {
        CHECK_MESSAGE(r.verdict == checker::Verdict::Bisimilar, what, ": ", verdict);
      }
    }
  }
}

// The explorer's shortcuts (part tables, lazy undo, the step memo of statespace/detail/step_memo.h)
// on programs with several engines in nested uniform range loops, where the memo's context
// matters: each corpus spec allocated per loop, per engine and with the barrier baseline, and
// searched without reductions, reaches exactly the states and transitions of a plain search,
// wherever a plain search is small enough to run here.
TEST_CASE("corpus: the explorer finds the states and transitions of a plain search") {
  const auto root = test::source_dir();
  const auto expected = nlohmann::json::parse(test::read_text(root / "corpus/expected.jsonc"), nullptr, true, true);
  int compared = 0;
  for (const auto& [rel, e] : expected.items()) {
    auto spec = formats::load_program_file((root / rel).string(), model::ProgramKind::Spec);
    REQUIRE_MESSAGE(spec.ok(), rel);
    for (auto strategy : {allocator::Strategy::PerLoop, allocator::Strategy::PerEngine, allocator::Strategy::Barrier}) {
      const std::string what = rel + " with " + allocator::to_string(strategy);
      auto alloc = allocator::allocate(spec->program, spec->index, allocator::Options{strategy, false});
      REQUIRE_MESSAGE(alloc.ok(), what);
      auto pair = checker::ProgramPair::make(spec->program, alloc->impl, semantics::Options{false});
      REQUIRE_MESSAGE(pair.ok(), what);
      const auto plain = test::plain_search((*pair)->lockstep(), 30000);
      if (!plain) continue;
      checker::CheckOptions o;
      o.reduction = false;
      const auto r = checker::check((*pair)->lockstep(), o);
      INFO(what);
      CHECK(r.exhaustive);
      CHECK(r.states == plain->states);
      CHECK(r.transitions == plain->transitions);
      ++compared;
    }
  }
  MESSAGE(compared, " pairs compared");
  CHECK(compared >= 20);
}
