// The expert strategy on random specs (issue 16 part 5): every allocation, with the static rule or
// with a judge that picks pairs to share arbitrarily (but deterministically, from the candidate
// impl), is bisimilar to its spec wherever its decisions say exact, and never under-synchronized.
// RapidCheck's seed is fixed by RC_PARAMS (tests/CMakeLists.txt) and printed on failure.
#include <doctest/doctest.h>

#include <functional>

#include "allocator/allocate.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/text_format.h"
#include "generators/spec_gen.h"
#include "model/index.h"
#include "support/dep_shapes.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;

TEST_CASE("expert: random specs, static or judged, bisimilar where exact, never under-synchronized") {
  test::rc_check(
      "expert on random specs",
      [] {
        // Either a generated program (checkable_spec_options, sometimes divergent), at full size, or
        // one of the dependency shapes of tests/support/dep_shapes.h (nested producers, offsets,
        // multi-level distances, a second producer in the pair).
        model::Program spec;
        if (*rc::gen::arbitrary<bool>()) {
          auto opts = generators::checkable_spec_options();
          opts.divergent = *rc::gen::arbitrary<bool>();
          spec = *rc::gen::resize(60, generators::gen_spec(opts));
        } else {
          auto text = formats::read_text(test::gen_shape_text());
          RC_ASSERT(text.ok());
          spec = std::move(*text);
          model::normalize(spec);
        }
        RC_CLASSIFY(spec.deps.size() >= 2, "two or more dependencies");
        const auto ix = model::ProgramIndex::build(spec);
        RC_ASSERT(ix.ok());
        allocator::Options o{allocator::Strategy::Expert, *rc::gen::arbitrary<bool>()};
        const int judge = *rc::gen::inRange(0, 3);  // none, share every pair, arbitrary per candidate
        RC_CLASSIFY(judge == 0, "static rule");
        if (judge == 1) o.judge = [](const model::Program&, const model::ProgramIndex&, const model::Program&) -> std::optional<std::uint64_t> { return 0; };
        if (judge == 2)
          o.judge = [](const model::Program&, const model::ProgramIndex&, const model::Program& impl) -> std::optional<std::uint64_t> {
            return std::hash<std::string>{}(formats::write_text(impl)) % 3;
          };
        const auto a = allocator::allocate(spec, *ix, o);
        RC_ASSERT(a.ok());
        const bool tails = formats::write_text(a->impl).find("t_") != std::string::npos;
        RC_CLASSIFY(tails, "tail thresholds");
        auto pair = checker::ProgramPair::make(spec, a->impl);
        RC_ASSERT(pair.ok());
        checker::CheckOptions co;
        co.max_states = 200000;
        const auto r = checker::check((*pair)->lockstep(), co);
        RC_CLASSIFY(!r.exhaustive, "inconclusive");
        const bool fine = r.verdict == checker::Verdict::Bisimilar || r.verdict == checker::Verdict::SpecDeadlock;
        if (r.verdict == checker::Verdict::UnderSynchronized || (a->exact() && r.exhaustive && !fine))
          RC_FAIL(std::string(checker::to_string(r.verdict)) + "\n" + formats::write_text(spec) + "\n" +
                  formats::write_text(a->impl));
      },
      300);
}
