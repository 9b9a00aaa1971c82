// The prover on the paper's figures, the allocator's output, the corpus and what lies outside
// its fragment (docs/prover.md).
#include <doctest/doctest.h>

#include "allocator/allocate.h"
#include "prover/prove_support.h"
#include "semantics/random_run.h"

using namespace syncbisim;
using prover::Answer;

namespace {

void check_all_proved(const prover::ProveResult& r, const std::string& what) {
  CHECK_MESSAGE(!r.consumers.empty(), what);
  for (const auto& c : r.consumers) CHECK_MESSAGE(c.answer == Answer::Proved, what, ": ", test::describe(c));
  CHECK_MESSAGE(r.verdict == Answer::Proved, what);
}

// A witness is a concrete execution: every step is one the lock step offers, and the last
// state has the disagreement at the consumer.
void check_replays(const prover::ProveResult& r, const prover::ConsumerResult& c, const prover::Witness& w) {
  INFO(c.instr, " ", w.kind, " witness of ", w.trace.size(), " steps");
  CHECK(test::witness_holds(r, c.instr, c.engine, w));
}

std::vector<std::string> specs_in(std::initializer_list<const char*> dirs) {
  std::vector<std::string> out;
  for (const auto* dir : dirs)
    for (const auto& p : test::files_in(dir, ".json"))
      if (p.filename().string().find(".impl.") == std::string::npos)
        out.push_back(std::filesystem::relative(p, test::source_dir()).string());
  return out;
}

bool divergent(const formats::LoadedProgram& spec) {
  for (const auto& l : spec.index.loops)
    if (l.trip && l.trip->divergent) return true;
  return false;
}

struct Exactness {
  bool refuted = false, held = false;  // some consumer refuted exact; one of those held at a barrier
  Answer verdict = Answer::Unknown;
};

// The prover on `spec`'s allocation with `o`: every consumer proved safe and decided exact, each
// exact refutation an over-synchronization whose witness replays.
Exactness check_safe_and_decided(const formats::LoadedProgram& spec, const allocator::Options& o,
                                 const std::string& rel) {
  auto alloc = allocator::allocate(spec.program, spec.index, o);
  REQUIRE(alloc.ok());
  const auto r = test::prove_pair(spec, alloc->impl);
  INFO(rel);
  Exactness out{.verdict = r.verdict};
  for (const auto& c : r.consumers) {
    CHECK_MESSAGE(c.safe.answer == Answer::Proved, test::describe(c));
    CHECK_MESSAGE(c.exact.answer != Answer::Unknown, test::describe(c));
    if (c.exact.answer == Answer::Refuted) {
      REQUIRE(c.exact.witness);
      CHECK(c.exact.witness->kind == "over-sync");
      out.refuted = true;
      out.held = out.held || c.exact.witness->mismatch.impl_blocked_at_barrier;
    }
    if (c.exact.witness) check_replays(r, c, *c.exact.witness);
  }
  return out;
}

}  // namespace

TEST_CASE("prover: paper Figures 7 and 8 are proved safe and exact") {
  const auto spec = test::load_corpus("corpus/figures/fig7_fig8.json", model::ProgramKind::Spec);
  for (const auto* impl : {"corpus/figures/fig7_per_instruction.impl.json", "corpus/figures/fig8_per_loop.impl.json",
                           "corpus/good/fig7_per_instruction.impl.sb", "corpus/good/fig8_per_loop.impl.sb"}) {
    const auto i = test::load_corpus(impl, model::ProgramKind::Impl);
    check_all_proved(test::prove_pair(spec, i.program), impl);
  }
}

TEST_CASE("prover: every barrier-free strategy's output on every figure and kernel is proved, none unknown") {
  const auto specs = specs_in({"corpus/figures", "corpus/kernels", "corpus/schemes"});
  REQUIRE(specs.size() >= 15);
  for (const auto& rel : specs) {
    const auto spec = test::load_corpus(rel, model::ProgramKind::Spec);
    for (auto strategy : {allocator::Strategy::PerInstruction, allocator::Strategy::PerLoop,
                          allocator::Strategy::PerEngine, allocator::Strategy::Auto, allocator::Strategy::Expert}) {
      // The prover does not read registers hoisted out of a loop by LICM (computed before the
      // loop, not in the consumer's region), so it is off here (docs/allocator.md).
      allocator::Options o{strategy, false};
      o.licm = false;
      auto alloc = allocator::allocate(spec.program, spec.index, o);
      REQUIRE(alloc.ok());
      check_all_proved(test::prove_pair(spec, alloc->impl), rel + " " + allocator::to_string(strategy));
    }
  }
}

TEST_CASE("prover: barrier allocations are safe and not exact, with an over-synchronization at a barrier") {
  int specs = 0;
  for (const auto& rel : specs_in({"corpus/figures", "corpus/kernels"})) {
    const auto spec = test::load_corpus(rel, model::ProgramKind::Spec);
    // Barriers stand at loop boundaries: straight-line code gets none, and cannot be held.
    if (divergent(spec) || spec.program.deps.empty() || spec.index.loops.size() < 2) continue;
    const auto e = check_safe_and_decided(spec, allocator::Options{allocator::Strategy::Barrier, false}, rel);
    CHECK_MESSAGE(e.held, rel, ": no over-synchronization at a barrier");
    CHECK_MESSAGE(e.verdict == Answer::Refuted, rel);
    ++specs;
  }
  CHECK(specs >= 10);
}

TEST_CASE("prover: the fallback of non-allocatable dependencies is safe, and over-synchronized at its barriers") {
  for (const auto& rel : specs_in({"corpus/nonallocatable"})) {
    const auto spec = test::load_corpus(rel, model::ProgramKind::Spec);
    allocator::Options o{allocator::Strategy::Auto, false};
    o.barrier_fallback = true;  // the paper's fallback (the default is the closed forms, below)
    CHECK_MESSAGE(check_safe_and_decided(spec, o, rel).refuted, rel);
  }
}

TEST_CASE("prover: corpus impls get the answers of their `# prove:` lines, and every witness replays") {
  int files = 0, refuted = 0;
  for (const auto* dir : {"corpus/bugs", "corpus/good"})
    for (const auto& f : test::files_in(dir, ".sb")) {
      refuted += test::check_prove_lines(f, 0).refuted;
      ++files;
    }
  CHECK(files >= 30);
  CHECK(refuted >= 20);
}

// docs/prover.md "Inside loops that ended": consumers after a loop nest whose bodies end with
// barriers, so the last release before the consumer, the one before the barrier holding it and the
// last reset of its semaphore lie inside the nest's last iterations.
TEST_CASE("prover: after loop nests with barriers, impls get their `# prove:` answers, the explorer agrees") {
  int files = 0, refuted = 0;
  for (const auto& f : test::files_in("tests/inputs/prover/ended_loops", ".impl.sb")) {
    refuted += test::check_prove_lines(f, 3).refuted;
    ++files;
  }
  CHECK(files >= 6);
  CHECK(refuted >= 10);
}

TEST_CASE("prover: outside the fragment is unknown, with the register, the statement and the shape expected") {
  // The pairs are files of tests/inputs/prover/outside, each impl naming its spec.
  auto prove = [](const std::string& impl) {
    const auto f = test::source_dir() / "tests/inputs/prover/outside" / impl;
    const auto spec = test::load_corpus(test::spec_of(f), model::ProgramKind::Spec);
    return test::prove_pair(spec, test::load_input("outside/" + impl, model::ProgramKind::Impl).program);
  };
  SUBCASE("a register that doubles every iteration") {
    const auto r = prove("doubling.impl.sb");
    REQUIRE(r.consumers.size() == 1);
    CHECK(r.consumers[0].answer == Answer::Unknown);
    CHECK(r.consumers[0].safe.reason.find("register r on E1") != std::string::npos);
    CHECK(r.consumers[0].safe.reason.find("iterations back") != std::string::npos);
  }
  SUBCASE("a register assigned inside a loop that ran before, not at its end") {
    const auto r = prove("assigned_in_loop.impl.sb");
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK(c->answer == Answer::Unknown);
    CHECK(c->safe.reason.find("register w on E1: assigned inside loop B") != std::string::npos);
  }
  SUBCASE("barriers in different blocks on different engines") {
    const auto r = prove("barriers_across_blocks.impl.sb");
    const auto* c = test::consumer(r, "C");
    REQUIRE(c);
    CHECK(c->safe.answer == Answer::Unknown);
    CHECK(c->safe.reason.find("semaphore s is reset by barriers the prover cannot place") != std::string::npos);
    CHECK(c->safe.reason.find("2 barrier(s) on E0 but 1 on E1") != std::string::npos);
  }
  SUBCASE("a barrier one engine never meets is a deadlock, refuted") {
    const auto r = prove("barrier_never_met.impl.sb");
    REQUIRE(r.consumers.size() == 1);
    CHECK(r.consumers[0].safe.answer == Answer::Proved);
    CHECK(r.consumers[0].exact.answer == Answer::Refuted);
  }
}
