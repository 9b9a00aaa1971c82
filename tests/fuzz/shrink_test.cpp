// The shrinker keeps the failure (kind, instruction, engine), is deterministic, honours its
// budgets, and refuses a case that does not fail (GitHub issue 6).
#include <doctest/doctest.h>

#include "formats/load.h"
#include "fuzz/dependency_kind.h"
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

// options() with one of its switches on (ShrinkOptions::free, ShrinkOptions::keep_spec).
fuzz::ShrinkOptions options_with(bool fuzz::ShrinkOptions::*on) {
  auto o = options();
  o.*on = true;
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

TEST_CASE("by default every kept dependency keeps its kind, and the failing instruction keeps its dependencies") {
  for (const auto& path : test::files_in("corpus/bugs", ".sb")) {
    const auto name = path.filename().string();
    INFO(name);
    const auto c = bug(name);
    auto r = fuzz::shrink(c.spec, fuzz::GivenImpl{c.impl}, std::nullopt, options());
    if (!r) continue;  // a bug whose only failure is a spec deadlock or that the default limits cut
    CHECK(r->kinds_after.size() == r->kinds_before.size());
    for (std::size_t i = 0; i < r->kinds_after.size() && i < r->kinds_before.size(); ++i)
      CHECK_MESSAGE(r->kinds_after[i].same_kind_as(r->kinds_before[i]), r->kinds_before[i].to_string(), " became ",
                    r->kinds_after[i].to_string());
  }
  // Figure 5's offset of 2 on the inner loop survives: the minimized case is still that question.
  const auto c = bug("fig5_monotone_in_mask.sb");
  auto r = fuzz::shrink(c.spec, fuzz::GivenImpl{c.impl}, std::nullopt, options());
  REQUIRE(r.ok());
  REQUIRE(r->spec.deps.size() == 1);
  CHECK(r->spec.deps[0].distance.at("B") == 2);
  CHECK(r->kind_changes > 0);
}

TEST_CASE("--free lets a dependency change its kind, the failure is still the same") {
  const auto c = bug("fig5_trip_reg_in_expr.sb");
  const auto o = options_with(&fuzz::ShrinkOptions::free);
  auto r = fuzz::shrink(c.spec, fuzz::GivenImpl{c.impl}, std::nullopt, o);
  REQUIRE(r.ok());
  REQUIRE(r->kinds_after.size() == 1);
  CHECK(!r->kinds_after[0].same_kind_as(r->kinds_before[0]));
  CHECK(fuzz::check_case(r->spec, r->impl, o.check, &std::get<fuzz::ViolationAt>(r->failure)).target_shown);
}

TEST_CASE("--keep-spec shrinks the impl only") {
  const auto c = bug("flash_attention_backward_wrong_loop.sb");
  const auto o = options_with(&fuzz::ShrinkOptions::keep_spec);
  auto r = fuzz::shrink(c.spec, fuzz::GivenImpl{c.impl}, std::nullopt, o);
  REQUIRE(r.ok());
  CHECK(r->spec == c.spec);
  CHECK(r->impl_after.synchronization < r->impl_before.synchronization);
  CHECK(fuzz::check_case(r->spec, r->impl, o.check, &std::get<fuzz::ViolationAt>(r->failure)).target_shown);
  // A derived impl cannot shrink with the spec kept.
  auto derived =
      fuzz::shrink(c.spec, fuzz::DerivedImpl{fuzz::allocate_with(allocator::Strategy::PerLoop)}, std::nullopt, o);
  CHECK(!derived.ok());
}

TEST_CASE("what changing a dependency's kind means") {
  fuzz::DependencyKind k;
  k.producer = "P";
  k.consumer = "C";
  k.carried_at = "B";
  k.cls = analysis::DepClass::ProducerInS;
  k.offsets = {{"B", 2}};
  auto lower = k, higher = k, elsewhere = k, other_case = k;
  lower.offsets["B"] = 1;
  higher.offsets["B"] = 3;
  elsewhere.carried_at = "A";
  other_case.cls = analysis::DepClass::NestedBackward;
  CHECK(!lower.same_kind_as(k));
  CHECK(higher.same_kind_as(k));
  CHECK(!elsewhere.same_kind_as(k));
  CHECK(!other_case.same_kind_as(k));
  auto unrelated = k;
  unrelated.producer = "Q";
  unrelated.consumer = "D";
  CHECK(fuzz::keeps_kinds({k, unrelated}, {k}));                // another dependency dropped
  CHECK(!fuzz::keeps_kinds({k, unrelated}, {unrelated}, "C"));  // the failing consumer's own dropped
  CHECK(fuzz::keeps_kinds({k, unrelated}, {unrelated}));        // ... allowed when no consumer is kept
  CHECK(!fuzz::keeps_kinds({k}, {lower}));
}
