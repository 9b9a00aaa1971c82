// The one entry point of the exhaustive search (checker/frontier.h): any frontier plugged into
// checker::check(pair, options, frontier) gives what the options' own search gives; the traces
// are shortened only where the frontier reports; a failure outside the search ends in a verdict
// only where the frontier is alone, and is passed on where it is not (an MPI rank).
#include <doctest/doctest.h>

#include <new>
#include <string>

#include "check_support.h"
#include "checker/frontier.h"
#include "support/check_summary.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

// The fig. 7 pair whose producer never signals: an over-synchronization (a deadlock), whose
// reduced trace is longer than the shortest one.
std::unique_ptr<test::Pair> missing_signal() {
  return test::load_pair(test::read_text(test::source_dir() / "corpus/figures/fig7_fig8.json"),
                         test::read_text(test::source_dir() / "corpus/bugs/fig7_missing_signal.sb"));
}

// One thread's search, with the two answers a frontier gives chosen by the test.
class Plugged final : public checker::Frontier {
 public:
  Plugged(bool reports, bool alone, bool fail) : reports_(reports), alone_(alone), fail_(fail) {}
  checker::CheckResult explore(const semantics::Lockstep& both, const checker::CheckOptions& o) override {
    ++explored;
    if (fail_) throw std::bad_alloc();
    return inner_.explore(both, o);
  }
  bool reports() const override { return reports_; }
  bool alone() const override { return alone_; }
  int explored = 0;

 private:
  checker::OneThread inner_;
  bool reports_, alone_, fail_;
};

}  // namespace

TEST_CASE("frontier: one thread, threads and a plugged frontier give the options' own search") {
  const auto p = missing_signal();
  checker::CheckOptions o;
  const auto want = checker::check(*p->fused, o);
  REQUIRE(want.verdict == checker::Verdict::OverSynchronized);
  REQUIRE(!want.violations.empty());
  checker::OneThread one;
  checker::Threads two(2);
  Plugged plugged(true, true, false);
  for (checker::Frontier* f : {static_cast<checker::Frontier*>(&one), static_cast<checker::Frontier*>(&two),
                               static_cast<checker::Frontier*>(&plugged)}) {
    const auto got = checker::check(*p->fused, o, *f);
    CHECK(test::summary(got) == test::summary(want));
  }
  CHECK(plugged.explored == 1);
}

TEST_CASE("frontier: traces are shortened where the frontier reports, left as found where it does not") {
  const auto p = missing_signal();
  checker::CheckOptions o;  // reductions on: the search's trace takes eager steps
  Plugged reports(true, true, false), silent(false, true, false);
  const auto shortened = checker::check(*p->fused, o, reports);
  const auto as_found = checker::check(*p->fused, o, silent);
  REQUIRE(shortened.violations.size() == as_found.violations.size());
  REQUIRE(!shortened.violations.empty());
  CHECK(shortened.violations[0].trace.size() < as_found.violations[0].trace.size());
  CHECK(shortened.verdict == as_found.verdict);
}

TEST_CASE("frontier: an allocation failure ends in a verdict when alone, and is passed on when not") {
  const auto p = missing_signal();
  checker::CheckOptions o;
  Plugged alone(true, true, true), rank(true, false, true);
  const auto r = checker::check(*p->fused, o, alone);
  CHECK(r.verdict == checker::Verdict::Inconclusive);
  CHECK(r.limit == "memory (an allocation failed)");
  CHECK(!r.exhaustive);
  CHECK_THROWS_AS(checker::check(*p->fused, o, rank), std::bad_alloc);
}
