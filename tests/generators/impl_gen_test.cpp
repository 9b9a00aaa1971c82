// Properties of the impl generator: valid (names and references), normalized, unique ids, and
// it produces every construct the formats must carry.
#include <doctest/doctest.h>

#include "generators/describe.h"
#include "generators/impl_gen.h"
#include "generators/tree_facts.h"  // tests/generators
#include "model/index.h"
#include "support/rapidcheck_doctest.h"

namespace sb = syncbisim;
using sb::model::Program;

TEST_CASE("every generated impl is valid, normalized and has unique ids") {
  sb::test::rc_check("impl valid", [] {
    const Program p = sb::test::draw_logged(sb::generators::gen_impl_shape());
    sb::test::check_valid_program(p, sb::model::ProgramKind::Impl, 3);
    RC_ASSERT(p.deps.empty());
    RC_ASSERT(sb::test::all_unique(p.semaphores));
  });
}

TEST_CASE("the impl generator covers every construct") {
  sb::test::TreeFacts total;
  std::uint32_t no_sems = 0, big_adds = 0, empty_resets = 0;
  sb::test::rc_check(
      "impl coverage",
      [&] {
        const Program p = *sb::generators::gen_impl_shape();
        total.add_counts(sb::test::facts(p));
        no_sems += p.semaphores.empty() ? 1 : 0;
        // Walk the top level only: enough to see that the rarer values occur at all.
        for (const auto& stmt : p.body)
          if (const auto* b = std::get_if<sb::model::Block>(&stmt.node))
            for (const auto& s : b->streams)
              for (const auto& item : s.items) {
                if (const auto* in = std::get_if<sb::model::Instr>(&item); in && in->signal && in->signal->add > 1)
                  ++big_adds;
                if (const auto* bar = std::get_if<sb::model::Barrier>(&item); bar && bar->reset && bar->reset->empty())
                  ++empty_resets;
              }
      },
      300);
  CHECK(total.loops > 0);
  CHECK(total.conds > 0);
  CHECK(total.missing_rules > 0);
  CHECK(total.divergent_rules > 0);
  CHECK(total.regops > 0);
  CHECK(total.barriers > total.barrier_resets);
  CHECK(total.barrier_resets > 0);
  CHECK(total.waits > total.register_waits);
  CHECK(total.register_waits > 0);
  CHECK(total.signals > 0);
  CHECK(no_sems > 0);
  CHECK(big_adds > 0);
  CHECK(empty_resets > 0);
}
