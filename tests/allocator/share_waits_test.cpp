// Sharing wait values (allocator/share_waits.h, paper §6.2): fewer ALU operations, the same
// values, so the same verdict.
#include <doctest/doctest.h>

#include <string>

#include "allocator/allocate.h"
#include "allocator/share_waits.h"
#include "allocator/stats.h"
#include "analysis/unroll.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "generators/spec_gen.h"
#include "support/rapidcheck_doctest.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

formats::LoadedProgram parse(const std::string& text) {
  auto r = formats::load_program_text(text, "test");
  REQUIRE_MESSAGE(r.ok(), r.error().to_string());
  return std::move(*r);
}

double alu_mean(const model::Program& impl) {
  auto ix = model::ProgramIndex::build(impl);
  REQUIRE(ix.ok());
  auto s = allocator::compute_stats(impl, {});
  REQUIRE(s.ok());
  return s->alu_mean;
}

}  // namespace

TEST_CASE("share waits: the decodes of one body share mask * N * r, copies go") {
  const auto impl = parse(R"(syncbisim impl/1
engines E0
semaphores s
E0: [w := isgt(rh, 0) * (4 * r - 3)] {s >= w} I0 [w := isgt(rh, 0) * (4 * r - 1)] [w2 := isgt(rh, 0) * (4 * r - 2)] {s >= w, s >= w2} I1
)");
  auto p = impl.program;
  CHECK(allocator::share_wait_values(p) == 3);
  CHECK(formats::write_text(p) == R"(syncbisim impl/1
engines E0
semaphores s
E0: [cse1 := 4 * r] [cse2 := isgt(rh, 0)] [cse3 := cse2 * cse1] [w := cse3 - 3] {s >= w} I0 [w := cse3 - 1] [w2 := cse3 - 2] {s >= w, s >= w2} I1
)");
}

TEST_CASE("share waits: nothing is shared across a write of an operand") {
  const auto impl = parse(R"(syncbisim impl/1
engines E0
semaphores s
E0: [w := 2 * r] {s >= w} I0 [r := r + 1] [w := 2 * r] {s >= w} I1
)");
  auto p = impl.program;
  CHECK(allocator::share_wait_values(p) == 0);
  CHECK(p == impl.program);
}

TEST_CASE("share waits: TiledMatmul with k unrolled, fewer ALU operations, still bisimilar") {
  auto spec = formats::load_program_file((test::source_dir() / "corpus/kernels/tiled_matmul.json").string());
  REQUIRE(spec.ok());
  auto u = analysis::unroll(spec->program, spec->index, {"k"});
  REQUIRE(u.ok());
  auto uix = model::ProgramIndex::build(*u);
  REQUIRE(uix.ok());
  for (auto st : {allocator::Strategy::PerLoop, allocator::Strategy::PerEngine, allocator::Strategy::PerInstruction}) {
    INFO(allocator::to_string(st));
    // the pass alone: the allocator's own LICM and CSE (on by default) leave it little to share
    allocator::Options po{st, false, false}, so{st, false, true};
    po.licm = po.cse = so.licm = so.cse = false;
    auto plain = allocator::allocate(*u, *uix, po);
    auto shared = allocator::allocate(*u, *uix, so);
    REQUIRE(plain.ok());
    REQUIRE(shared.ok());
    CHECK(alu_mean(shared->impl) < alu_mean(plain->impl));
    auto pair = checker::ProgramPair::make(*u, shared->impl);
    REQUIRE(pair.ok());
    CHECK(checker::check((*pair)->lockstep(), {}).verdict == checker::Verdict::Bisimilar);
  }
}

TEST_CASE("share waits: a shared allocation is bisimilar whenever the plain one is (property)") {
  test::rc_check(
      "shared wait values keep bisimilarity",
      [] {
        generators::SpecGenOptions opt{
            .max_engines = 3, .max_depth = 2, .deps = {.allocatable_only = true, .acyclic = true}, .divergent = false};
        const auto spec = *generators::gen_spec(opt);
        auto ix = model::ProgramIndex::build(spec);
        RC_ASSERT(ix.ok());
        const auto st = *rc::gen::element(allocator::Strategy::PerLoop, allocator::Strategy::PerEngine,
                                          allocator::Strategy::PerInstruction);
        auto a = allocator::allocate(spec, *ix, {st, false, true});
        RC_ASSERT(a.ok());
        auto pair = checker::ProgramPair::make(spec, a->impl);
        RC_ASSERT(pair.ok());
        checker::CheckOptions o;
        o.max_states = 200000;
        const auto r = checker::check((*pair)->lockstep(), o);
        RC_PRE(r.exhaustive);
        RC_LOG() << formats::write_text(a->impl);
        RC_ASSERT(r.verdict == checker::Verdict::Bisimilar);
      },
      100);
}
