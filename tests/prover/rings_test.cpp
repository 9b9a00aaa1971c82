// The prover on multi-level distances (docs/prover.md "Spec side"): the allocator's snapshot rings
// and windows (docs/allocator.md "Beyond the paper") are proved for every trip count, on every
// corpus/nonallocatable spec under every barrier-free strategy and on the pairs of
// tests/inputs/prover/rings; the rings' mutants (copied in the wrong order, one short, a wrong
// wait) are refuted, and the explorer rejects them too; on random one-dependency specs with a
// multi-level distance, the prover agrees with the explorer.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <optional>

#include "allocator/allocate.h"
#include "analysis/dependency_analysis.h"
#include "formats/text_format.h"
#include "model/index.h"
#include "prover/prove_support.h"
#include "support/dep_shapes.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using prover::Answer;

namespace {

std::vector<std::string> nonallocatable_specs() {
  std::vector<std::string> out;
  for (const auto* dir : {"corpus/nonallocatable", "tests/inputs/prover/rings"})
    for (const auto& p : test::files_in(dir, "")) {
      const auto name = p.filename().string();
      if (name.find(".impl.") != std::string::npos) continue;
      if (name.ends_with(".json") || name.ends_with(".spec.sb"))
        out.push_back(std::filesystem::relative(p, test::source_dir()).string());
    }
  return out;
}

bool has_multi_level(const formats::LoadedProgram& spec) {
  // A distance at a common loop above S (docs/prover.md "Spec side").
  const auto a = analysis::analyze_dependencies(spec.program, spec.index);
  for (const auto& d : a.deps)
    for (std::size_t i = 0; i + 1 < d.distance.size(); ++i)
      if (d.distance[i] != 0) return true;
  return false;
}

}  // namespace

TEST_CASE("prover: every corpus/nonallocatable spec, allocated with no barrier by every strategy, is proved") {
  int pairs = 0;
  for (const auto& rel : nonallocatable_specs()) {
    const auto spec = test::load_corpus(rel, model::ProgramKind::Spec);
    for (auto s : {allocator::Strategy::PerInstruction, allocator::Strategy::PerLoop, allocator::Strategy::PerEngine,
                   allocator::Strategy::Auto, allocator::Strategy::Mixed})
      for (bool licm : {true, false}) {
        allocator::Options o{s, false};
        o.licm = o.cse = licm;
        auto alloc = allocator::allocate(spec.program, spec.index, o);
        REQUIRE(alloc.ok());
        const auto what = rel + " " + allocator::to_string(s) + (licm ? "" : " --no-licm --no-cse");
        CHECK_MESSAGE(formats::write_text(alloc->impl).find("barrier") == std::string::npos, what);
        const auto r = test::prove_pair(spec, alloc->impl);
        for (const auto& c : r.consumers) CHECK_MESSAGE(c.answer == Answer::Proved, what, ": ", test::describe(c));
        CHECK_MESSAGE(r.verdict == Answer::Proved, what);
        // What the prover proves the explorer finds too (every interleaving, trips capped at 3).
        const auto full = test::explore(spec, alloc->impl, 3, true, 300000);
        CHECK_MESSAGE(full.violated.empty(), what);
        ++pairs;
      }
  }
  CHECK(pairs >= 40);
}

TEST_CASE("prover: ring pairs get their `# prove:` answers, the explorer rejects every refuted one") {
  int files = 0, refuted = 0;
  for (const auto& f : test::files_in("tests/inputs/prover/rings", ".impl.sb")) {
    const auto lines = test::check_prove_lines(f, 3);
    refuted += lines.refuted;
    ++files;
    if (lines.refuted == 0) continue;
    // check: the explorer (every trip of the rules) sees the mismatch at the same consumer.
    const auto rel = std::filesystem::relative(f, test::source_dir()).string();
    const auto spec = test::load_corpus(test::spec_of(f), model::ProgramKind::Spec);
    const auto impl = test::load_corpus(rel, model::ProgramKind::Impl);
    const auto x = test::explore(spec, impl.program);
    INFO(rel);
    CHECK(x.result.verdict != checker::Verdict::Bisimilar);
    for (const auto& c : lines.result.consumers) {
      if (c.safe.answer == Answer::Refuted) CHECK(x.under.count(c.instr));
      if (c.exact.answer == Answer::Refuted) CHECK(x.over.count(c.instr));
    }
  }
  CHECK(files >= 10);
  CHECK(refuted >= 4);
}

TEST_CASE("prover: random specs with a multi-level distance, allocated per-loop: prove agrees with check") {
  // One dependency of a random shape (tests/support/dep_shapes.h) whose distance is non-zero above
  // S. proved => the explorer finds no mismatch there; refuted => it finds one (where it
  // completes); and where the allocator's form is exact (never `bound`) and the explorer finds
  // the pair bisimilar, the prover decides it: proved.
  int proved_exact = 0;
  test::rc_check(
      "prove agrees with check on multi-level distances",
      [&] {
        // Shapes are drawn until one has a distance above S (about half of them do at full size).
        std::optional<formats::LoadedProgram> drawn;
        for (int tries = 0; tries < 20 && !drawn; ++tries) {
          // At full size: the shapes' picks scale with RapidCheck's size, and small sizes give one
          // common loop only.
          auto loaded = formats::read_text(*rc::gen::resize(100, rc::gen::exec([] { return test::gen_shape_text(); })));
          RC_ASSERT(loaded.ok());
          auto program = std::move(*loaded);
          model::normalize(program);
          auto ix = model::ProgramIndex::build(program);
          RC_ASSERT(ix.ok());
          formats::LoadedProgram candidate{std::move(program), std::move(*ix)};
          if (has_multi_level(candidate)) drawn = std::move(candidate);
        }
        RC_PRE(drawn.has_value());
        const auto& spec = *drawn;
        allocator::Options o{allocator::Strategy::PerLoop, false};
        auto alloc = allocator::allocate(spec.program, spec.index, o);
        RC_ASSERT(alloc.ok());
        const auto& impl = alloc->impl;
        const auto what = formats::write_text(spec.program) + "\nimpl:\n" + formats::write_text(impl);
        const auto r = test::prove_pair(spec, impl);
        const auto full = test::explore(spec, impl, 0, true, 300000);
        for (const auto& c : r.consumers) {
          if (c.safe.answer == Answer::Proved && full.under.count(c.instr)) RC_FAIL(c.instr + " proved safe\n" + what);
          if (c.exact.answer == Answer::Proved && full.over.count(c.instr)) RC_FAIL(c.instr + " proved exact\n" + what);
          if (!full.result.exhaustive) continue;
          if (c.safe.answer == Answer::Refuted && !full.under.count(c.instr))
            RC_FAIL(c.instr + " refuted safe, the explorer finds no under-sync\n" + what);
          if (c.exact.answer == Answer::Refuted && !full.over.count(c.instr) && !full.over_engines.count(c.engine))
            RC_FAIL(c.instr + " refuted exact, the explorer finds no over-sync\n" + what);
        }
        const bool exact_form = alloc->exact();
        RC_TAG(exact_form ? "exact form" : "bound");
        if (exact_form && full.result.exhaustive && full.violated.empty()) {
          for (const auto& c : r.consumers)
            if (c.answer != Answer::Proved) RC_FAIL(c.instr + " not proved: " + test::describe(c) + "\n" + what);
          ++proved_exact;
        }
      },
      80);
  CHECK(proved_exact >= 20);
}
