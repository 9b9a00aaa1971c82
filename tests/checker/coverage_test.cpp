// check --coverage: which dependencies ever held their consumer back and which waits ever
// blocked, over the explored states (docs/checker.md "Coverage").
#include <doctest/doctest.h>

#include "check_support.h"
#include "checker/coverage.h"
#include "checker/explorer.h"

using namespace syncbisim;

namespace {

checker::Coverage covered(const test::Pair& p, bool reduction = true) {
  checker::Coverage c(p.lockstep());
  checker::CheckOptions o;
  o.reduction = reduction;
  o.coverage = &c;
  const auto r = checker::check(p.lockstep(), o);
  CHECK(r.exhaustive);
  CHECK(c.states() == r.states);  // every explored state is seen once
  return c;
}

}  // namespace

TEST_CASE("a dependency that holds its consumer back, and the wait that blocks for it") {
  const auto p = test::load_pair(R"(syncbisim spec/1
engines E0 E1
loop A trip 2 {
  E0: P
  E1: C
}
dep P -> C
)",
                                 R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A {
  E0: P {s += 1}
  E1: [r := r + 1] {s >= r} C
}
)");
  const auto c = covered(*p);
  REQUIRE(c.dependencies().size() == 1);
  CHECK(c.dependencies()[0].held > 0);
  CHECK(c.dependencies()[0].owed >= c.dependencies()[0].held);
  REQUIRE(c.waits().size() == 1);
  CHECK(c.waits()[0].blocked > 0);
  CHECK(c.render_text().find("1 held their consumer back") != std::string::npos);
}

TEST_CASE("an offset the trips never reach is never owed, and a wait for nothing never blocks") {
  // Offset 2 in a loop of two iterations: every target underflows. The impl waits on a
  // semaphore that is already high enough (its producer runs before the loop).
  const auto p = test::load_pair(R"(syncbisim spec/1
engines E0 E1
E0: Q
loop A trip 2 {
  E0: P
  E1: C
}
dep P -> C distance A=2
)",
                                 R"(syncbisim impl/1
engines E0 E1
semaphores s t
E0: Q {t += 1}
loop A {
  E0: P {s += 1}
  E1: {t >= 0} C
}
)");
  for (bool reduction : {true, false}) {
    const auto c = covered(*p, reduction);
    CHECK(c.dependencies()[0].reached > 0);
    CHECK(c.dependencies()[0].owed == 0);
    CHECK(c.dependencies()[0].held == 0);
    CHECK(c.waits()[0].reached > 0);
    CHECK(c.waits()[0].blocked == 0);
    const auto text = c.render_text();
    CHECK(text.find("P -> C {A: 2}: never owed") != std::string::npos);
    CHECK(text.find("E1 C: t >= 0: checked in") != std::string::npos);
    const auto j = c.render_json();
    CHECK(j["dependencies"][0]["owed"] == 0);
    CHECK(j["waits"][0]["blocked"] == 0);
  }
}
