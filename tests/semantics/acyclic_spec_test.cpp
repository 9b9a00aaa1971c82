// docs/generators.md claims that an acyclic spec under uniform control cannot deadlock: every
// wait is owed by an instance earlier in (iteration vector, program order) and all engines run
// the same trips. Random schedules of the spec system put the claim to the test.
#include <doctest/doctest.h>

#include "generators/spec_gen.h"
#include "model/index.h"
#include "programs.h"
#include "semantics/random_run.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;

TEST_CASE("acyclic specs under uniform control never deadlock") {
  test::rc_check(
      "no deadlock",
      [] {
        generators::SpecGenOptions opt;
        opt.deps.acyclic = true;
        opt.divergent = false;
        const auto spec = test::gen_loaded_spec(opt);
        const semantics::SpecSystem sys(spec->code);
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
          const auto r = semantics::run_spec(sys, seed);
          RC_ASSERT(r.outcome == semantics::RunOutcome::Finished);
        }
      },
      200);
}
