// Semaphore and register budgets (docs/allocator.md "Budgets"), every result judged by the
// explorer: within the budget, exact wherever an exact allocation the tool knows of fits, never
// under-synchronized at any budget down to 2, and the dependencies that lost exactness named.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "allocator/allocate.h"
#include "allocator/budget.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "fuzz/campaign.h"
#include "support/rapidcheck_doctest.h"
#include "support/test_files.h"

using namespace syncbisim;
using allocator::Strategy;

namespace {

const Strategy kBudgetedStrategies[] = {Strategy::PerInstruction, Strategy::PerLoop, Strategy::PerEngine, Strategy::Auto,
                                 Strategy::Mixed};

struct Judged {
  checker::Verdict verdict;
  bool exhaustive;
};

Judged judge(const model::Program& spec, const model::Program& impl) {
  auto pair = checker::ProgramPair::make(spec, impl);
  REQUIRE_MESSAGE(pair.ok(), (pair.ok() ? "" : pair.error().to_string()));
  checker::CheckOptions o;
  o.max_states = 2000000;
  const auto r = checker::check((*pair)->lockstep(), o);
  return {r.verdict, r.exhaustive};
}

bool exact(const allocator::Allocation& a) { return a.exact(); }

// The fewest semaphores / registers of an exact allocation the tool already has (a strategy
// left alone): where a budget allows as much, the fitted allocation must be exact too.
std::size_t exact_semaphores(const formats::LoadedProgram& spec) {
  std::size_t best = SIZE_MAX;
  for (auto s : {Strategy::PerInstruction, Strategy::PerLoop, Strategy::PerEngine}) {
    auto a = allocator::allocate(spec.program, spec.index, allocator::Options{s, false});
    REQUIRE(a.ok());
    if (exact(*a)) best = std::min(best, a->impl.semaphores.size());
  }
  return best;
}
std::size_t exact_registers(const formats::LoadedProgram& spec) {
  allocator::Options o{Strategy::PerInstruction, true};
  o.licm = o.cse = false;
  o.direct_registers = true;
  auto a = allocator::allocate(spec.program, spec.index, o);
  REQUIRE(a.ok());
  return exact(*a) ? allocator::usage_of(a->impl, spec.index).registers_max() : SIZE_MAX;
}

void check_budget(const std::string& what, const formats::LoadedProgram& spec, const allocator::Options& o,
                  bool must_be_exact, bool spec_deadlock) {
  auto a = allocator::allocate(spec.program, spec.index, o);
  REQUIRE_MESSAGE(a.ok(), what, ": ", (a.ok() ? "" : a.error().to_string()));
  const auto use = allocator::usage_of(a->impl, spec.index);
  CHECK_MESSAGE(use.semaphores <= o.max_semaphores, what);
  CHECK_MESSAGE(use.registers_max() <= o.max_registers, what);
  const auto j = judge(spec.program, a->impl);
  INFO(what, ": ", checker::to_string(j.verdict));
  CHECK(j.exhaustive);
  CHECK(j.verdict != checker::Verdict::UnderSynchronized);
  // Decisions that say exact are: the whole result is bisimilar when all of them do.
  if (exact(*a) && !spec_deadlock) CHECK(j.verdict == checker::Verdict::Bisimilar);
  if (must_be_exact) CHECK_MESSAGE(exact(*a), what, " could have been exact");
  // Whatever lost exactness is named in a note.
  if (!exact(*a)) {
    bool named = false;
    for (const auto& n : a->notes) named = named || n.find("not exact:") != std::string::npos;
    CHECK_MESSAGE(named, what);
  }
}

}  // namespace

TEST_CASE("budgets: every corpus spec, every barrier-free strategy, semaphores from generous down to 2") {
  const auto root = test::source_dir();
  const auto expected = nlohmann::json::parse(test::read_text(root / "corpus/expected.jsonc"), nullptr, true, true);
  int judged = 0;
  for (const auto& [rel, e] : expected.items()) {
    if (rel.find("stress_5engine") != std::string::npos) continue;  // too large to explore this often
    auto spec = formats::load_program_file((root / rel).string(), model::ProgramKind::Spec);
    REQUIRE(spec.ok());
    const auto min_exact = exact_semaphores(*spec);
    for (auto s : kBudgetedStrategies)
      for (std::size_t n : {std::size_t{256}, std::size_t{8}, std::size_t{6}, std::size_t{5}, std::size_t{4},
                            std::size_t{3}, std::size_t{2}}) {
        allocator::Options o{s, false};
        o.max_semaphores = n;
        check_budget(rel + " " + allocator::to_string(s) + " --max-semaphores " + std::to_string(n), *spec, o,
                     n >= min_exact, e.at("spec_deadlock").get<bool>());
        ++judged;
      }
  }
  MESSAGE(judged, " allocations judged");
  CHECK(judged >= 300);
}

TEST_CASE("budgets: registers per engine from generous down to 2") {
  const auto root = test::source_dir();
  const auto expected = nlohmann::json::parse(test::read_text(root / "corpus/expected.jsonc"), nullptr, true, true);
  for (const auto& [rel, e] : expected.items()) {
    if (rel.find("stress_5engine") != std::string::npos) continue;
    auto spec = formats::load_program_file((root / rel).string(), model::ProgramKind::Spec);
    REQUIRE(spec.ok());
    const auto min_exact = exact_registers(*spec);
    for (auto s : {Strategy::PerLoop, Strategy::Mixed})
      for (std::size_t n :
           {std::size_t{64}, std::size_t{8}, std::size_t{5}, std::size_t{4}, std::size_t{3}, std::size_t{2}}) {
        allocator::Options o{s, false};
        o.max_registers = n;
        check_budget(rel + " " + allocator::to_string(s) + " --max-registers " + std::to_string(n), *spec, o,
                     n >= min_exact, e.at("spec_deadlock").get<bool>());
      }
  }
}

TEST_CASE("budgets: the mixed strategy spends a generous budget on the least ALU per issue") {
  auto spec = formats::load_program_file((test::source_dir() / "corpus/kernels/flash_attention.json").string());
  REQUIRE(spec.ok());
  const auto mixed = allocator::allocate(spec->program, spec->index, allocator::Options{Strategy::Mixed, false});
  const auto per_loop = allocator::allocate(spec->program, spec->index, allocator::Options{Strategy::PerLoop, false});
  REQUIRE(mixed.ok());
  REQUIRE(per_loop.ok());
  std::uint64_t alu_mixed = 0, alu_loop = 0;
  for (const auto& d : mixed->decisions) alu_mixed += d.wait ? d.wait->alu_cost() : 0;
  for (const auto& d : per_loop->decisions) alu_loop += d.wait ? d.wait->alu_cost() : 0;
  CHECK(alu_mixed < alu_loop);
  CHECK(mixed->impl.semaphores.size() > per_loop->impl.semaphores.size());
  // and in as few as per-engine needs (one semaphore per engine), still exact
  const auto per_engine =
      allocator::allocate(spec->program, spec->index, allocator::Options{Strategy::PerEngine, false});
  REQUIRE(per_engine.ok());
  REQUIRE(exact(*per_engine));
  const auto fewest = per_engine->impl.semaphores.size();
  REQUIRE(fewest < per_loop->impl.semaphores.size());
  allocator::Options o{Strategy::Mixed, false};
  o.max_semaphores = fewest;
  const auto tight = allocator::allocate(spec->program, spec->index, o);
  REQUIRE(tight.ok());
  CHECK(exact(*tight));
  CHECK(tight->impl.semaphores.size() <= fewest);
  CHECK(judge(spec->program, tight->impl).verdict == checker::Verdict::Bisimilar);
}

TEST_CASE("budgets: semaphores recycled across top-level phases, the reset where no waiter reads them") {
  // Two phases with three producers each; the second phase never reads the first's semaphores.
  const auto spec = formats::load_program_text(R"(
syncbisim spec/1
engines E0 E1 E2 E3
loop A trip 1..2 {
  E0: P0
  E1: P1
  E2: P2
  E3: C0 C1 C2
}
loop B trip 1..2 {
  E1: Q0
  E2: Q1
  E3: Q2
  E0: D0 D1 D2
}
dep P0 -> C0
dep P1 -> C1 distance A=1
dep P2 -> C2
dep Q0 -> D0
dep Q1 -> D1 distance B=1
dep Q2 -> D2
)",
                                               "two phases");
  REQUIRE(spec.ok());
  allocator::Options o{Strategy::Mixed, false};
  o.max_semaphores = 3;
  const auto a = allocator::allocate(spec->program, spec->index, o);
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().to_string()));
  const auto text = formats::write_text(a->impl);
  INFO(text);
  for (const auto& d : a->decisions) INFO(d.to_string());
  CHECK(a->impl.semaphores.size() == 3);
  // Barriers only between the phases (before loop B, at top level), resetting only recycled
  // semaphores: the others keep their counts.
  int barriers = 0;
  for (const auto& st : a->impl.body)
    if (const auto* b = std::get_if<model::Block>(&st.node))
      for (const auto& stream : b->streams)
        for (const auto& item : stream.items)
          if (const auto* bar = std::get_if<model::Barrier>(&item)) {
            ++barriers;
            REQUIRE(bar->reset);
            CHECK(!bar->reset->empty());
            for (const auto& r : *bar->reset) CHECK(r.rfind("s_recycled_", 0) == 0);
          }
  CHECK(barriers == 4);  // one per engine
  CHECK(std::count(text.begin(), text.end(), '(') > 0);
  std::size_t all = 0;
  for (std::size_t at = 0; (at = text.find("barrier", at)) != std::string::npos; ++at) ++all;
  CHECK(all == 4);  // and none inside the loops
  bool recycled = false;
  for (const auto& n : a->notes) recycled = recycled || n.find("recycled") != std::string::npos;
  CHECK(recycled);
  const auto j = judge(spec->program, a->impl);
  CHECK(j.exhaustive);
  CHECK(j.verdict == checker::Verdict::OverSynchronized);  // the barrier: safe, not exact
  // a reset that every waiter might still read would be unsafe: resetting everything (the
  // naive version) deadlocks or under-synchronizes; ours only over-synchronizes at the phase
  // boundary. Without the budget, the same spec is exact.
  const auto free = allocator::allocate(spec->program, spec->index, allocator::Options{Strategy::Mixed, false});
  REQUIRE(free.ok());
  CHECK(judge(spec->program, free->impl).verdict == checker::Verdict::Bisimilar);
}

TEST_CASE("budgets: random campaign specs under random budgets are never under-synchronized") {
  test::rc_check(
      "mixed under a random budget",
      [] {
        const auto spec = *generators::gen_spec(fuzz::campaign_spec_options(*rc::gen::arbitrary<bool>()));
        const auto ix = model::ProgramIndex::build(spec);
        RC_ASSERT(ix.ok());
        allocator::Options o{
            *rc::gen::elementOf(std::vector<Strategy>(std::begin(kBudgetedStrategies), std::end(kBudgetedStrategies))), false};
        o.max_semaphores = *rc::gen::inRange<std::size_t>(0, 6);
        o.max_registers = *rc::gen::inRange<std::size_t>(0, 8);
        const auto a = allocator::allocate(spec, *ix, o);
        if (!a) {  // only a budget nothing fits may refuse
          RC_ASSERT(a.error().rule == "over-budget");
          RC_TAG("refused");
          return;
        }
        const auto use = allocator::usage_of(a->impl, *ix);
        RC_ASSERT(use.semaphores <= o.max_semaphores);
        RC_ASSERT(use.registers_max() <= o.max_registers);
        auto pair = checker::ProgramPair::make(spec, a->impl);
        RC_ASSERT(pair.ok());
        checker::CheckOptions c;
        c.max_states = 50000;
        const auto r = checker::check((*pair)->lockstep(), c);
        if (r.verdict == checker::Verdict::UnderSynchronized)
          RC_FAIL(formats::write_text(spec) + "\n" + formats::write_text(a->impl));
        if (exact(*a) && r.exhaustive && r.verdict != checker::Verdict::Bisimilar) {
          std::string notes;
          for (const auto& n : a->notes) notes += n + "\n";
          RC_FAIL("claimed exact, but " + std::string(checker::to_string(r.verdict)) + "\n" +
                  formats::write_text(spec) + "\n" + formats::write_text(a->impl) + notes);
        }
        RC_CLASSIFY(!exact(*a), "not exact");
      },
      200);
}
