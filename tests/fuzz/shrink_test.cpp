// The shrinker keeps the failure (kind, instruction, engine), is deterministic, honours its
// budgets, and refuses a case that does not fail (GitHub issue 6).
#include <doctest/doctest.h>

#include "formats/load.h"
#include "fuzz/shrink.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

struct Case {
  model::Program spec, impl;
};

Case bug(const std::string& name) {
  const auto root = test::source_dir();
  const auto text = test::read_text(root / "corpus/bugs" / name);
  const auto spec_path = text.substr(text.find("# spec: ") + 8, text.find('\n') - 8);
  auto spec = formats::load_program_file((root / spec_path).string());
  auto impl = formats::load_program_file((root / "corpus/bugs" / name).string());
  REQUIRE(spec.ok());
  REQUIRE(impl.ok());
  return {spec->program, impl->program};
}

fuzz::ShrinkOptions options() {
  fuzz::ShrinkOptions o;
  o.check.policy = fuzz::Counts::All;
  o.max_seconds = 0;  // deterministic: only the step budget
  return o;
}

}  // namespace

TEST_CASE("shrinking a given pair keeps the same failure and shrinks") {
  for (const char* name :
       {"flash_attention_backward_wrong_loop.sb", "fig5_trip_reg_never_reset.sb", "fig6_forward_missing_signal.sb"}) {
    INFO(name);
    const auto c = bug(name);
    const auto first = fuzz::check_case(c.spec, c.impl, options().check);
    REQUIRE(first.failure);
    auto r = fuzz::shrink(c.spec, fuzz::GivenImpl{c.impl}, std::nullopt, options());
    REQUIRE(r.ok());
    CHECK(r->failure == fuzz::Failure{*first.failure});
    CHECK(r->stopped.empty());
    CHECK(r->after.instructions <= r->before.instructions);
    CHECK(r->after.engines <= r->before.engines);
    CHECK(fuzz::check_case(r->spec, r->impl, options().check, &std::get<fuzz::ViolationAt>(r->failure)).target_shown);
    // Same input, same output.
    auto again = fuzz::shrink(c.spec, fuzz::GivenImpl{c.impl}, std::nullopt, options());
    REQUIRE(again.ok());
    CHECK(again->spec == r->spec);
    CHECK(again->impl == r->impl);
    CHECK(again->steps == r->steps);
  }
}

TEST_CASE("the step budget stops the shrinker with a failing case") {
  const auto c = bug("flash_attention_backward_wrong_loop.sb");
  auto o = options();
  o.max_steps = 3;
  auto r = fuzz::shrink(c.spec, fuzz::GivenImpl{c.impl}, std::nullopt, o);
  REQUIRE(r.ok());
  CHECK(r->stopped == "max-steps 3");
  CHECK(r->steps == 3);
  CHECK(fuzz::check_case(r->spec, r->impl, o.check, &std::get<fuzz::ViolationAt>(r->failure)).target_shown);
}

TEST_CASE("a case without a failure is refused") {
  const auto root = test::source_dir();
  auto spec = formats::load_program_file((root / "corpus/figures/fig1_motivating.json").string());
  REQUIRE(spec.ok());
  auto r = fuzz::shrink(spec->program, fuzz::DerivedImpl{fuzz::allocate_with(allocator::Strategy::PerLoop)},
                        std::nullopt, options());
  REQUIRE(!r.ok());
  CHECK(r.error().rule == "no-failure");
}
