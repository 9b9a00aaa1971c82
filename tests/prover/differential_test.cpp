// The prover against the explorer (docs/prover.md "Tests"): on every corpus pair, on the
// allocator's output for every corpus spec and strategy, and on generated pairs (allocated
// specs and their mutants) at small trips: it never proves what the explorer refutes, and
// whenever it refutes at trips the explorer covers, the explorer (every interleaving, no
// reduction) agrees. Plus a bug that needs more than 20 iterations: refuted by the prover, missed
// by a bounded exploration.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include "allocator/allocate.h"
#include "generators/describe.h"
#include "generators/mutations.h"
#include "generators/spec_gen.h"
#include "prover/prove_support.h"
#include "support/generated_pairs.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using prover::Answer;

namespace {

struct Agreement {
  int decided = 0, refutations_checked = 0;
  std::vector<std::string> failures;
};

// proved => the explorer sees no mismatch of that kind at the consumer; refuted => the
// unreduced explorer, when it completes, sees one.
void agree(const formats::LoadedProgram& spec, const model::Program& impl, const std::string& what, Agreement& a,
           std::uint64_t full_states = 1000000) {
  const auto r = test::prove_pair(spec, impl);
  const auto reduced = test::explore(spec, impl);
  const auto full = test::explore(spec, impl, 0, true, full_states);
  auto fail = [&](const std::string& s) { a.failures.push_back(what + ": " + s); };
  for (const auto& c : r.consumers) {
    for (const auto& x : {&reduced, &full}) {
      if (c.safe.answer == Answer::Proved && x->under.count(c.instr))
        fail(c.instr + " proved safe, explorer: under-sync");
      if (c.exact.answer == Answer::Proved && x->over.count(c.instr))
        fail(c.instr + " proved exact, explorer: over-sync");
    }
    if (full.result.exhaustive) {
      if (c.safe.answer == Answer::Refuted) {
        ++a.refutations_checked;
        if (!full.under.count(c.instr)) fail(c.instr + " refuted safe, the explorer finds no under-sync");
      }
      if (c.exact.answer == Answer::Refuted) {
        ++a.refutations_checked;
        // Held at a barrier, the explorer names one instruction the spec could go on to (the
        // first its search of the trip choices meets): the same engine's over-synchronization.
        const bool held = c.exact.witness && c.exact.witness->mismatch.impl_blocked_at_barrier;
        if (!full.over.count(c.instr) && !(held && full.over_engines.count(c.engine)))
          fail(c.instr + " refuted exact, the explorer finds no over-sync");
      }
    }
    a.decided += (c.safe.answer != Answer::Unknown) + (c.exact.answer != Answer::Unknown);
  }
}

void report(const Agreement& a) {
  for (const auto& f : a.failures) FAIL_CHECK(f);
}

}  // namespace

TEST_CASE("prover: agrees with the explorer on every corpus pair") {
  Agreement a;
  for (const auto* dir : {"corpus/bugs", "corpus/good"})
    for (const auto& f : test::files_in(dir, ".sb")) {
      const auto spec = test::load_corpus(test::spec_of(f), model::ProgramKind::Spec);
      const auto rel = std::filesystem::relative(f, test::source_dir()).string();
      agree(spec, test::load_corpus(rel, model::ProgramKind::Impl).program, rel, a);
    }
  report(a);
  CHECK(a.decided >= 80);
  CHECK(a.refutations_checked >= 20);
}

TEST_CASE("prover: agrees with the explorer on every strategy's output for every corpus spec") {
  Agreement a;
  for (const auto* dir : {"corpus/figures", "corpus/nonallocatable", "corpus/schemes"})
    for (const auto& p : test::files_in(dir, ".json")) {
      if (p.filename().string().find(".impl.") != std::string::npos) continue;
      const auto rel = std::filesystem::relative(p, test::source_dir()).string();
      const auto spec = test::load_corpus(rel, model::ProgramKind::Spec);
      for (auto s : {allocator::Strategy::Barrier, allocator::Strategy::PerInstruction, allocator::Strategy::PerLoop,
                     allocator::Strategy::PerEngine, allocator::Strategy::Auto}) {
        auto alloc = allocator::allocate(spec.program, spec.index, allocator::Options{s, false});
        REQUIRE(alloc.ok());
        agree(spec, alloc->impl, rel + " " + allocator::to_string(s), a, 300000);
      }
    }
  report(a);
  CHECK(a.refutations_checked >= 20);
}

TEST_CASE("prover: agrees with the explorer on generated pairs at small trips") {
  // Allocated random specs (every strategy) and their mutants: correct schemes and broken ones.
  const auto ok = rc::check("prover vs explorer on generated pairs", [] {
    // Depth and trips at the defaults (3 and 3).
    generators::SpecGenOptions o{
        .max_engines = 3, .max_top_stmts = 4, .max_body_stmts = 2, .max_deps = 4, .extras = false};
    const auto spec = test::gen_indexed_spec(o);
    const auto impl = test::gen_allocation(spec, 2.0 / 3).impl;
    Agreement a;
    agree(spec, impl, generators::describe(spec.program), a, 200000);
    for (const auto& f : a.failures) RC_FAIL(f + "\nimpl: " + generators::describe(impl));
  });
  CHECK(ok);
}

TEST_CASE("prover: a wait that stops masking after 20 iterations is refuted, --max-trip 3 cannot see it") {
  // Offset 1 on A, whose trip is anything in 1..30. The mask isgt(rh, 1) * isgt(21, rh) drops
  // to 0 from iteration 21 on, so C then issues without waiting for P of the previous iteration.
  const auto spec = test::offset_one_spec(30);
  const auto impl = test::offset_one_impl("isgt(rh, 1) * isgt(21, rh)");
  const auto r = test::prove_pair(spec, impl.program);
  const auto& witness = test::only_under_sync(r);
  CHECK(witness.kind == "under-sync");
  REQUIRE(witness.iteration.size() == 1);
  CHECK(witness.iteration[0].first == "A");
  CHECK(witness.iteration[0].second >= 21);

  const auto bounded = test::explore(spec, impl.program, 3);
  CHECK(bounded.violated.empty());
  CHECK(bounded.result.verdict == checker::Verdict::Bisimilar);  // capped: the CLI reports this as inconclusive

  // The same wait with the mask kept is proved.
  const auto good = test::offset_one_impl("isgt(rh, 1)");
  CHECK(test::prove_pair(spec, good.program).verdict == Answer::Proved);
}

TEST_CASE("prover: every strategy's output on generated specs is decided, nothing unknown") {
  // The shapes the allocator emits, for random specs of up to three engines under uniform control
  // whose dependencies cannot deadlock the spec (allocatable or not: the fallback's barriers too).
  // (With cyclic dependencies or per-engine rules some candidates lie past a deadlock the directed
  // run cannot get by: docs/prover.md "What `unknown` means".)
  const auto ok = rc::check("nothing unknown on allocations of generated specs", [] {
    generators::SpecGenOptions o{.max_engines = 3,
                                 .max_depth = 3,
                                 .max_trip = 3,
                                 .deps = {.allocatable_only = *rc::gen::arbitrary<bool>(), .acyclic = true},
                                 .divergent = false,
                                 .extras = false};
    const auto spec = test::gen_indexed_spec(o);
    const auto pair = test::gen_allocation(spec);
    const auto r = test::prove_pair(spec, pair.impl);
    for (const auto& c : r.consumers)
      for (const auto* p : {&c.safe, &c.exact})
        if (p->answer == Answer::Unknown)
          RC_FAIL(std::string(allocator::to_string(pair.strategy)) + " " + c.instr + ": " + p->reason + "\n" +
                  generators::describe(spec.program));
  });
  CHECK(ok);
}

TEST_CASE("prover: barrier allocations of generated loop nests agree with the explorer, nothing unknown") {
  // The barrier baseline on specs of up to four engines with loops nested three deep, so that
  // consumers follow loop nests: the last release before a consumer, the one before the barrier
  // holding it and the last reset of its semaphore lie inside loops that ended (docs/prover.md
  // "Inside loops that ended"). Unmutated: nothing unknown (uniform control, no cyclic
  // dependency); mutated (a wait or signal changed, a barrier dropped): the explorer agrees.
  test::rc_check(
      "barrier allocations of generated loop nests",
      [] {
        auto o = generators::checkable_spec_options();
        o.max_engines = 4;
        o.max_depth = 3;
        const auto spec = test::gen_indexed_spec(o);
        const auto drawn = test::gen_allocation(spec, 0.5, allocator::Strategy::Barrier);
        const auto& impl = drawn.impl;
        const bool mutated = drawn.mutated;
        const auto what = generators::describe(spec.program) + "\nimpl: " + generators::describe(impl);
        if (!mutated) {
          const auto r = test::prove_pair(spec, impl);
          for (const auto& c : r.consumers)
            for (const auto* p : {&c.safe, &c.exact})
              if (p->answer == Answer::Unknown) RC_FAIL(c.instr + ": " + p->reason + "\n" + what);
        }
        Agreement a;
        agree(spec, impl, what, a, 200000);
        for (const auto& f : a.failures) RC_FAIL(f);
      },
      60);
}
