// Properties of the spec generator: valid, normalized, unique ids, sizes within the options,
// and allocatable_only really only allocatable (docs/semantics.md §6).
#include <doctest/doctest.h>

#include <algorithm>

#include "generators/describe.h"
#include "generators/spec_gen.h"
#include "generators/tree_facts.h"  // tests/generators
#include "model/index.h"
#include "support/rapidcheck_doctest.h"

namespace sb = syncbisim;
using sb::generators::SpecGenOptions;
using sb::model::Program;

namespace {

// Checks one dependency against the allocatable shapes, from the index's view of the tree
// (pre-order instruction ranks, loop parents), independent of the generator's own walk.
bool allocatable(const sb::model::ProgramIndex& ix, const sb::model::Dependency& d) {
  const auto p = *ix.instr(d.producer);
  const auto c = *ix.instr(d.consumer);
  const auto parent = ix.instrs[p].parent;
  const auto s = ix.common(parent, ix.instrs[c].parent);
  std::uint32_t k = 0;
  for (const auto& [loop, offset] : d.distance) {
    if (offset == 0) continue;
    if (*ix.loop(loop) != s) return false;  // non-zero above S
    k = offset;
  }
  if (parent == s) return k <= 2;
  const bool forward = p < c;  // ProgramIndex numbers instructions in pre-order
  return forward ? k == 0 : k == 1;
}

}  // namespace

TEST_CASE("every generated spec is valid, normalized and has unique ids") {
  sb::test::rc_check("spec valid", [] {
    const Program p = sb::test::draw_logged(sb::generators::gen_spec());
    const auto f = sb::test::check_valid_program(p, sb::model::ProgramKind::Spec, 3);
    RC_ASSERT(p.semaphores.empty());
    RC_ASSERT(f.missing_rules == 0u);
    RC_ASSERT(p.engines.size() >= 1u);
    RC_ASSERT(p.engines.size() <= 5u);
    for (const auto& e : f.engines_used) RC_ASSERT(std::find(p.engines.begin(), p.engines.end(), e) != p.engines.end());
  });
}

TEST_CASE("spec sizes follow the options") {
  sb::test::rc_check("spec options", [] {
    SpecGenOptions o;
    o.min_engines = *rc::gen::inRange<std::uint32_t>(1, 6);
    o.max_engines = *rc::gen::inRange<std::uint32_t>(o.min_engines, 6);
    o.max_depth = *rc::gen::inRange<std::uint32_t>(0, 4);
    o.max_trip = *rc::gen::inRange<std::uint32_t>(0, 4);
    const Program p = sb::test::draw_logged(sb::generators::gen_spec(o));
    RC_ASSERT(p.engines.size() >= o.min_engines);
    RC_ASSERT(p.engines.size() <= o.max_engines);
    RC_ASSERT(sb::test::facts(p).max_depth <= o.max_depth);
    RC_ASSERT(sb::model::ProgramIndex::build(p).ok());
  });
}

TEST_CASE("allocatable_only specs have only allocatable dependencies, one per consumer") {
  sb::test::rc_check(
      "spec allocatable",
      [] {
        SpecGenOptions o;
        o.deps.allocatable_only = true;
        o.deps.acyclic = *rc::gen::arbitrary<bool>();
        const Program p = sb::test::draw_logged(sb::generators::gen_spec(o));
        const auto ix = sb::model::ProgramIndex::build(p);
        if (!ix) RC_FAIL(ix.error().to_string());
        std::set<std::string> consumers;
        for (const auto& d : p.deps) {
          RC_ASSERT(allocatable(*ix, d));
          RC_ASSERT(consumers.insert(d.consumer).second);
        }
      },
      500);
}

TEST_CASE("acyclic specs have no zero-distance dependency pointing backwards") {
  sb::test::rc_check("spec acyclic", [] {
    SpecGenOptions o;
    o.deps.acyclic = true;
    const Program p = sb::test::draw_logged(sb::generators::gen_spec(o));
    const auto ix = sb::model::ProgramIndex::build(p);
    RC_ASSERT(ix.ok());
    for (const auto& d : p.deps) {
      bool zero = true;
      for (const auto& [loop, k] : d.distance) zero = zero && k == 0;
      if (zero) RC_ASSERT(*ix->instr(d.producer) < *ix->instr(d.consumer));
    }
  });
}

TEST_CASE("the spec generator covers every construct") {
  // Counts over one run: a generator that silently stopped producing conds or divergent trips
  // would still pass every property above.
  sb::test::TreeFacts total;
  std::uint32_t deps = 0, multi_level = 0, carried = 0, multi_dep_consumers = 0, engines5 = 0;
  sb::test::rc_check(
      "spec coverage",
      [&] {
        const Program p = *sb::generators::gen_spec();
        total.add_counts(sb::test::facts(p));
        deps += static_cast<std::uint32_t>(p.deps.size());
        std::map<std::string, int> per_consumer;
        for (const auto& d : p.deps) {
          multi_level += d.distance.size() > 1 ? 1 : 0;
          carried += d.distance.empty() ? 0 : 1;
          if (++per_consumer[d.consumer] == 2) ++multi_dep_consumers;
        }
        engines5 += p.engines.size() == 5 ? 1 : 0;
      },
      300);
  CHECK(total.loops > 0);
  CHECK(total.conds > 0);
  CHECK(total.divergent_rules > 0);
  CHECK(total.extras > 0);
  CHECK(total.max_depth == 3);
  CHECK(deps > 0);
  CHECK(multi_level > 0);
  CHECK(carried > 0);
  CHECK(multi_dep_consumers > 0);
  CHECK(engines5 > 0);
}
