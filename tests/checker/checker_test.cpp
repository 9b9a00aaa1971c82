// The differential checker on tiny inline programs (docs/semantics.md §5; docs/formats.md verdicts).
#include <doctest/doctest.h>

#include "check_support.h"
#include "checker/report.h"
#include "support/test_files.h"

using namespace syncbisim;
using checker::Verdict;
using checker::ViolationKind;

namespace {

// The paper's Figure 7/8 program and its per-loop allocation, as shipped in the corpus.
std::string corpus_file(const char* rel) { return test::read_text(test::source_dir() / rel); }
const std::string kFig7Spec = corpus_file("corpus/figures/fig7_fig8.json");
const std::string kFig8Impl = corpus_file("corpus/good/fig8_per_loop.impl.sb");

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

const checker::Violation* find(const checker::CheckResult& r, ViolationKind k, const std::string& instr,
                               const test::Pair& p) {
  for (const auto& v : r.violations)
    if (v.kind == k && v.instr && p.spec_code().instrs[*v.instr].name == instr) return &v;
  return nullptr;
}

}  // namespace

TEST_CASE("the paper's per-loop allocation of Figure 8 is bisimilar, with and without reductions") {
  const auto p = test::load_pair(kFig7Spec, kFig8Impl);
  for (bool reduce : {true, false}) {
    checker::CheckOptions o;
    o.reduction = reduce;
    const auto r = test::run_check(*p, o);
    CHECK(r.verdict == Verdict::Bisimilar);
    CHECK(r.exhaustive);
    CHECK(r.violations.empty());
    CHECK(r.states > 1);
  }
}

TEST_CASE("a wait one too low is under-synchronization, with a shortest trace and both sides' numbers") {
  const auto p = test::load_pair(kFig7Spec, replace(kFig8Impl, "(2 * r_A)", "(2 * r_A - 1)"));
  const auto r = test::run_check(*p);
  CHECK(r.verdict == Verdict::UnderSynchronized);
  const auto* v = find(r, ViolationKind::UnderSync, "I2", *p);
  REQUIRE(v != nullptr);
  // issue I0, retire I0: then s0 = 1 reaches the wrong threshold 1 while I1 has not retired.
  REQUIRE(v->trace.size() == 2);
  CHECK(v->trace[0].kind == semantics::StepKind::Issue);
  CHECK(v->trace[1].kind == semantics::StepKind::Retire);
  REQUIRE(v->mismatch.spec_checks.size() == 1);
  CHECK(v->mismatch.spec_checks[0].retired == 0);
  CHECK(v->mismatch.spec_checks[0].owed == 1);
  REQUIRE(v->mismatch.impl_checks.size() == 1);
  CHECK(v->mismatch.impl_checks[0].value == 1);
  CHECK(v->mismatch.impl_checks[0].threshold == 1);
}

TEST_CASE("a wait one too high is over-synchronization") {
  const auto p = test::load_pair(kFig7Spec, replace(kFig8Impl, "(2 * r_A)", "(2 * r_A + 1)"));
  const auto r = test::run_check(*p);
  CHECK(r.verdict == Verdict::OverSynchronized);
  CHECK(find(r, ViolationKind::OverSync, "I2", *p) != nullptr);
  CHECK(find(r, ViolationKind::UnderSync, "I2", *p) == nullptr);
}

TEST_CASE("a missing signal deadlocks the implementation alone: over-synchronization") {
  const auto p = test::load_pair(kFig7Spec, replace(kFig8Impl, "I1 {s0 += 1}", "I1"));
  const auto r = test::run_check(*p);
  CHECK(r.verdict == Verdict::OverSynchronized);
  bool deadlock = false;
  for (const auto& v : r.violations)
    if (v.kind == ViolationKind::Deadlock) {
      deadlock = true;
      CHECK_FALSE(v.spec_deadlocks_too);
    }
  CHECK(deadlock);
}

TEST_CASE("the barrier baseline is safe but over-synchronized") {
  const auto p = test::load_pair(kFig7Spec, R"(
syncbisim impl/1
engines E0 E1
semaphores s0 s1
E0: barrier
E1: barrier
loop A {
  E0: I0 {s0 += 1} I1 {s0 += 1} barrier
  E1: {s0 >= 2} I2 {s1 += 1} barrier
}
)");
  const auto r = test::run_check(*p);
  CHECK(r.verdict == Verdict::OverSynchronized);
  for (const auto& v : r.violations) CHECK(v.kind != ViolationKind::UnderSync);
}

TEST_CASE("a dependency that never binds under divergent control is a spec deadlock (paper §7.5)") {
  const auto p = test::load_pair(corpus_file("corpus/figures/sec75_divergent.json"),
                                 corpus_file("corpus/good/sec75_divergent.impl.sb"));
  const auto r = test::run_check(*p);
  CHECK(r.verdict == Verdict::SpecDeadlock);
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].kind == ViolationKind::Deadlock);
  CHECK(r.violations[0].spec_deadlocks_too);
}

TEST_CASE("streams listed in another engine order still name the same instructions") {
  // The impl lists E1 before E0 in the block: instruction ids must follow the spec's.
  const auto p = test::load_pair(R"(
syncbisim spec/1
engines E0 E1
E0: P
E1: C
dep P -> C
)",
                                 R"(
syncbisim impl/1
engines E0 E1
semaphores s
E1: {s >= 1} C
E0: P {s += 1}
)");
  const auto r = test::run_check(*p);
  CHECK(r.verdict == Verdict::Bisimilar);
}

TEST_CASE("limits make a search inconclusive, never bisimilar") {
  const auto p = test::load_pair(kFig7Spec, kFig8Impl);
  checker::CheckOptions o;
  o.max_states = 3;
  const auto r = test::run_check(*p, o);
  CHECK(r.verdict == Verdict::Inconclusive);
  CHECK_FALSE(r.exhaustive);
  CHECK(r.limit.find("max-states") != std::string::npos);
}

TEST_CASE("a trip cap that cuts a range makes the check inconclusive and names itself, violations still count") {
  const std::string body = R"(
engines E0 E1
loop A trip 1..3 {
  E0: P
  E1: C
}
)";
  const auto spec = formats::load_program_text("syncbisim spec/1" + body + "dep P -> C\n", "spec");
  const auto good = formats::load_program_text(R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A {
  E0: P {s += 1}
  E1: [r := r + 1] {s >= r} C
}
)",
                                               "impl");
  REQUIRE(spec.ok());
  REQUIRE(good.ok());
  auto check_capped = [&](const model::Program& impl, std::uint32_t cap) {
    auto pair = checker::ProgramPair::make(spec->program, impl, checker::PairOptions{{}, cap});
    REQUIRE(pair.ok());
    return checker::check(**pair, {});
  };
  // Without a cap, and with one that cuts nothing, the search is a proof.
  CHECK(check_capped(good->program, 0).verdict == Verdict::Bisimilar);
  const auto uncut = check_capped(good->program, 3);
  CHECK(uncut.verdict == Verdict::Bisimilar);
  CHECK(uncut.limit.empty());
  const auto cut = check_capped(good->program, 2);
  CHECK(cut.verdict == Verdict::Inconclusive);
  CHECK_FALSE(cut.exhaustive);
  CHECK(cut.limit == "max-trip 2");
  CHECK(cut.states < check_capped(good->program, 0).states);
  // An impl without the wait is wrong in the first iteration: the capped search still says so.
  const auto bad = formats::load_program_text("syncbisim impl/1" + body, "impl");
  REQUIRE(bad.ok());
  const auto r = check_capped(bad->program, 1);
  CHECK(r.verdict == Verdict::UnderSynchronized);
  CHECK_FALSE(r.exhaustive);
  CHECK(r.limit == "max-trip 1");
}

TEST_CASE("a cut walk of the spec past a barrier is undecided: the check names the limit and is inconclusive") {
  // E0 waits at a barrier for E1 to retire P. Past the barrier the spec would walk four loops of
  // 0..9 trips each before I, which waits for P: every way through is a path of its own for
  // ahead_of_barrier, about 10^4 of them, more than it walks.
  std::string loops;
  for (int l = 1; l <= 4; ++l) loops += "loop L" + std::to_string(l) + " trip 0..9 {\n}\n";
  const auto p =
      test::load_pair("syncbisim spec/1\nengines E0 E1\nE1: P\n" + loops + "E0: I\ndep P -> I\n",
                      "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE0: barrier()\nE1: P {s += 1} barrier()\n" +
                          loops + "E0: {s >= 1} I\n");
  const auto& both = p->lockstep();
  const auto start = both.initial();
  const auto ms = both.mismatches(start);
  REQUIRE(ms.size() == 1);
  CHECK(ms[0].undecided);
  CHECK(ms[0].engine == 0);
  CHECK_FALSE(ms[0].spec_can);
  CHECK_FALSE(ms[0].impl_can);
  for (const bool reduce : {true, false}) {
    checker::CheckOptions o;
    o.reduction = reduce;
    const auto r = test::run_check(*p, o);
    CHECK(r.violations.empty());
    CHECK(r.verdict == Verdict::Inconclusive);
    CHECK_FALSE(r.exhaustive);
    CHECK(r.limit == "ahead-of-barrier 10000 spec states");
  }
}

TEST_CASE(
    "a deadlock whose spec search was cut is neither over-sync nor spec-deadlock: inconclusive, the limit named") {
  // The impl holds E0 at a barrier E1 never reaches. Whether the spec is stuck too takes a walk
  // through E0's own loops (about 10^8 states: trips 1..99 and 0..99), and I can never issue
  // there (it owes P, which only E1 runs, and E1 runs no iteration).
  const auto p = test::load_pair(R"(syncbisim spec/1
engines E0 E1
loop L1 trip per_engine(E0: 1..99; default 0) {
  E1: P
  loop L2 trip per_engine(E0: 0..99; default 0) {
  }
}
E0: I
dep P -> I
)",
                                 R"(syncbisim impl/1
engines E0 E1
semaphores s
E0: barrier()
loop L1 {
  E1: P {s += 1}
  loop L2 {
  }
}
E0: {s >= 1} I
)");
  const auto r = test::run_check(*p);
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].kind == ViolationKind::Deadlock);
  CHECK(r.violations[0].spec_search_cut);
  CHECK_FALSE(r.violations[0].spec_deadlocks_too);
  CHECK(r.verdict == Verdict::Inconclusive);
  CHECK_FALSE(r.exhaustive);
  CHECK(r.limit.find("spec-progress 100000 spec states") != std::string::npos);
}

TEST_CASE("random walks are reproducible from the seed and find the bug") {
  const auto p = test::load_pair(kFig7Spec, replace(kFig8Impl, "(2 * r_A)", "(2 * r_A - 1)"));
  checker::CheckOptions o;
  o.walks = 20;
  o.seed = 42;
  const auto a = test::run_check(*p, o);
  const auto b = test::run_check(*p, o);
  CHECK(a.verdict == Verdict::UnderSynchronized);
  REQUIRE(a.violations.size() == b.violations.size());
  for (std::size_t i = 0; i < a.violations.size(); ++i) CHECK(a.violations[i].trace == b.violations[i].trace);
  // On a correct pair a random search is never a proof.
  const auto good = test::load_pair(kFig7Spec, kFig8Impl);
  CHECK(test::run_check(*good, o).verdict == Verdict::Inconclusive);
}

TEST_CASE("the trace file holds every event of each violation, internal steps included") {
  const auto p = test::load_pair(kFig7Spec, replace(kFig8Impl, "(2 * r_A)", "(2 * r_A - 1)"));
  const semantics::SpecSystem spec(p->spec_code());
  const semantics::ImplSystem impl(p->impl_code());
  const semantics::Lockstep both(spec, impl);
  const auto r = checker::check(both, {});
  const auto j = checker::traces_json(both, r);
  REQUIRE(j.at("violations").size() == r.violations.size());
  const auto& trace = j.at("violations").at(0).at("trace");
  std::size_t regops = 0, issues = 0, retires = 0;
  for (const auto& ev : trace) {
    regops += ev.at("step") == "regop";
    issues += ev.at("step") == "issue";
    retires += ev.at("step") == "retire";
  }
  CHECK(regops == 7);  // [rhA := 0] and the two counter updates on each engine, and E1's [w := ...]
  CHECK(issues == 1);
  CHECK(retires == 1);
  CHECK(j.at("violations").at(0).at("kind") == "under-sync");
}
