// The extended closed forms (allocator/target_count.h, docs/allocator.md "Beyond the paper")
// judged by the explorer: every barrier-free strategy on every spec the paper cannot allocate
// (corpus/nonallocatable) and on random dependency shapes is bisimilar wherever its decisions
// say exact, never under-synchronized anywhere, and emits no barrier.
#include <doctest/doctest.h>

#include <filesystem>

#include "allocator/allocate.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "support/dep_shapes.h"
#include "support/rapidcheck_doctest.h"
#include "support/test_files.h"

using namespace syncbisim;
using allocator::Strategy;

namespace {

const Strategy kExtendedFormStrategies[] = {Strategy::PerInstruction, Strategy::PerLoop, Strategy::PerEngine, Strategy::Auto,
                                 Strategy::Expert};

bool has_barrier(const model::Program& impl) { return formats::write_text(impl).find("barrier") != std::string::npos; }

bool all_exact(const allocator::Allocation& a) {
  for (const auto& d : a.decisions)
    if (!d.exact) return false;
  return true;
}

}  // namespace

TEST_CASE("nonallocatable corpus: every barrier-free strategy is bisimilar with no barrier") {
  int specs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "corpus/nonallocatable")) {
    auto spec = formats::load_program_file(entry.path().string(), model::ProgramKind::Spec);
    REQUIRE(spec.ok());
    ++specs;
    for (auto s : kExtendedFormStrategies)
      for (bool prune : {false, true}) {
        const std::string what = entry.path().filename().string() + " with " + allocator::to_string(s);
        const auto a = allocator::allocate(spec->program, spec->index, allocator::Options{s, prune});
        REQUIRE_MESSAGE(a.ok(), what);
        CHECK_MESSAGE(!has_barrier(a->impl), what);
        CHECK_MESSAGE(all_exact(*a), what);
        auto pair = checker::ProgramPair::make(spec->program, a->impl);
        REQUIRE_MESSAGE(pair.ok(), what);
        const auto r = checker::check((*pair)->lockstep(), {});
        CHECK_MESSAGE(r.exhaustive, what);
        CHECK_MESSAGE(r.verdict == checker::Verdict::Bisimilar, what, ": ", checker::to_string(r.verdict));
      }
  }
  CHECK(specs >= 4);
}

TEST_CASE("random dependency shapes: exact where the decisions say so, never under-synchronized, no barrier") {
  test::rc_check(
      "explorer on random shapes",
      [] {
        auto spec = formats::read_text(test::gen_shape_text());
        RC_ASSERT(spec.ok());
        model::normalize(*spec);
        const auto ix = model::ProgramIndex::build(*spec);
        RC_ASSERT(ix.ok());
        const auto s = *rc::gen::elementOf(std::vector<Strategy>(std::begin(kExtendedFormStrategies), std::end(kExtendedFormStrategies)));
        const auto a = allocator::allocate(*spec, *ix, allocator::Options{s, *rc::gen::arbitrary<bool>()});
        RC_ASSERT(a.ok());
        RC_ASSERT(!has_barrier(a->impl));
        auto pair = checker::ProgramPair::make(*spec, a->impl);
        RC_ASSERT(pair.ok());
        checker::CheckOptions o;
        o.max_states = 200000;
        const auto r = checker::check((*pair)->lockstep(), o);
        const bool exact = all_exact(*a);
        RC_CLASSIFY(!exact, "not exact");
        RC_CLASSIFY(!r.exhaustive, "inconclusive");
        // A dependency on a later instruction of the same iteration deadlocks the spec itself.
        RC_CLASSIFY(r.verdict == checker::Verdict::SpecDeadlock, "spec deadlock");
        const bool fine = r.verdict == checker::Verdict::Bisimilar || r.verdict == checker::Verdict::SpecDeadlock;
        if (r.verdict == checker::Verdict::UnderSynchronized || (exact && r.exhaustive && !fine))
          RC_FAIL(std::string(checker::to_string(r.verdict)) + " with " + allocator::to_string(s) + "\n" +
                  formats::write_text(*spec) + "\n" + formats::write_text(a->impl));
      },
      400);
}
