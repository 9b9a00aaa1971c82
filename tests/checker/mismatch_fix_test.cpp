// What a mismatch asks of the impl (checker/mismatch_fix.h): the numbers it names are those of the
// state where the sides part, and the kind of fix agrees with them.
#include <doctest/doctest.h>

#include "checker/explorer.h"
#include "checker/mismatch_fix.h"
#include "checker/trace_view.h"
#include "formats/load.h"
#include "random_pairs.h"
#include "support/test_files.h"

namespace syncbisim {

namespace {

// Every under- and over-synchronization of one search, with its fix.
void check_fixes(const checker::ProgramPair& pair) {
  checker::CheckOptions o;
  o.max_states = 20000;
  const auto r = checker::check(pair.lockstep(), o);
  const auto& sp = pair.spec_code();
  const auto& ip = pair.impl_code();
  for (const auto& v : r.violations) {
    if (v.kind != checker::ViolationKind::UnderSync && v.kind != checker::ViolationKind::OverSync) continue;
    const auto& m = v.mismatch;
    const auto f = checker::fix_for(sp, ip, m);
    RC_ASSERT(f.has_value());
    RC_ASSERT(!f->text.empty());
    // The text is part of the report people read.
    RC_ASSERT(checker::describe_mismatch(sp, ip, m).find("fix: " + f->text) != std::string::npos);
    using K = checker::MismatchFix::Kind;
    const auto& waits = ip.instrs[m.instr].waits;
    if (v.kind == checker::ViolationKind::UnderSync) {
      RC_CLASSIFY(f->kind == K::RaiseThreshold, "raise");
      RC_CLASSIFY(f->kind == K::AddWait, "add wait");
      RC_CLASSIFY(f->kind == K::AddSignal, "add signal");
      RC_ASSERT(f->kind == K::RaiseThreshold || f->kind == K::AddWait || f->kind == K::AddSignal);
      if (f->kind == K::RaiseThreshold) {
        // The wait holds now (that is the fault) and the least threshold that blocks is above
        // the semaphore's value.
        RC_ASSERT(f->threshold && f->value && f->needed);
        RC_ASSERT(*f->threshold <= *f->value);
        RC_ASSERT(*f->needed > *f->value);
      }
      if (f->kind == K::AddWait) {
        RC_ASSERT(f->semaphore.has_value());
        for (const auto& w : waits) RC_ASSERT(ip.semaphores[w.sem] != *f->semaphore);
      }
    } else {
      RC_CLASSIFY(f->kind == K::LowerThreshold, "lower");
      RC_CLASSIFY(f->kind == K::DropBarrier, "barrier");
      RC_ASSERT(f->kind == K::LowerThreshold || f->kind == K::DropBarrier);
      if (f->kind == K::LowerThreshold) {
        RC_ASSERT(f->threshold && f->value && f->needed);
        RC_ASSERT(*f->threshold > *f->value);  // the wait blocks
        RC_ASSERT(*f->needed == *f->value);    // the largest threshold that lets it go
      } else {
        bool blocks = false;
        for (const auto& w : m.impl_checks) blocks = blocks || !w.holds();
        RC_ASSERT(!blocks);
      }
    }
  }
}

}  // namespace

TEST_CASE("mismatch fix: its numbers are the parting state's and its kind agrees with them") {
  test::rc_check("fix agrees with the state", [] { check_fixes(*test::gen_small_pair()); }, 300);
}

TEST_CASE("mismatch fix: an N-K off by one names the threshold the state needed and where it came from") {
  const auto spec = formats::load_program_file((test::source_dir() / "corpus/figures/fig7_fig8.json").string());
  const auto impl = formats::load_program_file((test::source_dir() / "corpus/bugs/fig8_nk_off_by_one.sb").string());
  REQUIRE(spec.ok());
  REQUIRE(impl.ok());
  auto pair = checker::ProgramPair::make(spec->program, impl->program);
  REQUIRE(pair.ok());
  const auto r = checker::check((*pair)->lockstep(), {});
  REQUIRE(!r.violations.empty());
  const auto f = checker::fix_for((*pair)->spec_code(), (*pair)->impl_code(), r.violations.front().mismatch);
  REQUIRE(f.has_value());
  CHECK(f->kind == checker::MismatchFix::Kind::RaiseThreshold);
  CHECK(f->semaphore == "s0");
  CHECK(f->value == 1u);
  CHECK(f->needed == 2u);
  CHECK(f->threshold == 1u);
  CHECK(f->threshold_source == "w := isgt(rh_A, 0) * (2 * r_A - 1)");
  CHECK(!f->same_engine);
}

}  // namespace syncbisim
