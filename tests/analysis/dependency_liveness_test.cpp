// Live and dead dependencies (analysis/dependency_liveness.h, issue 40): one small program per
// reason a dependency can never bind, its live neighbour beside it, and the property that the
// campaign's generator draws live dependencies only.
#include <doctest/doctest.h>

#include "analysis/dependency_liveness.h"
#include "generators/spec_gen.h"
#include "generators/swarm.h"
#include "support/rapidcheck_doctest.h"
#include "tests/analysis/builders.h"

using namespace syncbisim::test;
namespace analysis = syncbisim::analysis;
namespace generators = syncbisim::generators;

namespace {

std::vector<analysis::DependencyLiveness> liveness_of(const Program& p) {
  const auto ix = index_of(p);
  return analysis::dependency_liveness(ix, analysis::analyze_dependencies(p, ix));
}

}  // namespace

TEST_CASE("an offset binds only where a trip runs more iterations than the offset") {
  const auto in_loop = [](std::uint32_t n) {
    return spec({"E0", "E1"}, {loop("A", n, {block({{"E0", {"p"}}, {"E1", {"c"}}})})},
                {dep("p", "c", {{"A", 2}})});
  };
  CHECK_FALSE(liveness_of(in_loop(2))[0].live);
  CHECK(liveness_of(in_loop(2))[0].why_dead == "offset 2 at A, whose trips run at most 2 iterations");
  CHECK(liveness_of(in_loop(3))[0].live);
  // A range reaches its maximum in some run the checker explores.
  const auto ranged = spec({"E0", "E1"}, {loop("A", range(0, 3), {block({{"E0", {"p"}}, {"E1", {"c"}}})})},
                           {dep("p", "c", {{"A", 2}})});
  CHECK(liveness_of(ranged)[0].live);
}

TEST_CASE("@top runs once: an offset there never binds, offset 0 does") {
  const auto top = [](std::map<std::string, std::uint32_t> d) {
    return spec({"E0", "E1"}, {block({{"E0", {"p"}}, {"E1", {"c"}}})}, {dep("p", "c", std::move(d))});
  };
  CHECK(liveness_of(top({}))[0].live);
  const auto dead = liveness_of(top({{"@top", 1}}))[0];
  CHECK_FALSE(dead.live);
  CHECK(dead.why_dead == "offset 1 at @top, whose trips run at most 1 iteration");
}

TEST_CASE("an end in a loop of trip 0 or a branch never taken never runs") {
  const auto zero = spec({"E0", "E1"},
                         {block({{"E0", {"p"}}}), loop("Z", 0, {block({{"E1", {"c"}}})})}, {dep("p", "c")});
  CHECK(liveness_of(zero)[0].why_dead == "loop Z never runs an iteration");
  const auto producer_dead = spec({"E0", "E1"},
                                  {loop("Z", 0, {block({{"E0", {"p"}}})}), block({{"E1", {"c"}}})}, {dep("p", "c")});
  CHECK(liveness_of(producer_dead)[0].why_dead == "loop Z never runs an iteration");
  // A cond whose rule always takes the else branch (value 1): its then branch never runs.
  auto never_then = cond("C", {block({{"E0", {"p"}}})}, {block({{"E0", {"q"}}})});
  std::get<Cond>(never_then.node).taken = trips(ConstTrip{1});
  const auto branch = spec({"E0", "E1"}, {never_then, block({{"E1", {"c"}}})}, {dep("p", "c"), dep("q", "c")});
  const auto l = liveness_of(branch);
  CHECK(l[0].why_dead == "the then branch of C is never taken");
  CHECK(l[1].live);
  // Nested: a loop of trip 0 anywhere above the end is enough.
  const auto deep = spec({"E0", "E1"},
                         {loop("Z", 0, {loop("B", 3, {block({{"E0", {"p"}}})})}), block({{"E1", {"c"}}})},
                         {dep("p", "c")});
  CHECK_FALSE(liveness_of(deep)[0].live);
}

TEST_CASE("a cond branch runs once per entry: an offset carried there never binds") {
  const auto p = spec({"E0", "E1"}, {loop("A", 3, {cond("C", {block({{"E0", {"p"}}, {"E1", {"c"}}})}, {})})},
                      {dep("p", "c", {{"C.then", 1}}), dep("p", "c", {{"A", 1}})});
  const auto l = liveness_of(p);
  CHECK_FALSE(l[0].live);
  CHECK(l[1].live);  // across iterations of A: the then branch of an earlier iteration
}

TEST_CASE("the campaign's draws have live dependencies only (dead picks off)") {
  rc_check("live draws are live", [] {
    auto o = generators::checkable_spec_options();
    o.deps.live = true;
    o.deps.allocatable_only = *rc::gen::arbitrary<bool>();
    auto swarm = *generators::gen_swarm_options(o);
    swarm.deps.dead_picks = false;  // the swarm turns them on in some draws
    const auto p = *generators::gen_spec(swarm);
    const auto ix = index_of(p);
    const auto a = analysis::analyze_dependencies(p, ix);
    const auto l = analysis::dependency_liveness(ix, a);
    for (std::size_t i = 0; i < l.size(); ++i) {
      RC_LOG() << p.deps[i].producer << " -> " << p.deps[i].consumer << ": " << l[i].why_dead << "\n";
      RC_ASSERT(l[i].live);
      if (o.deps.allocatable_only) RC_ASSERT(a.deps[i].allocatable());
    }
  });
}
