// A semaphore reused along a chain of loop nests (docs/allocator.md "Reusing registers and
// semaphores") as the prover sees it (docs/prover.md "Complexity", whole statements of signals):
// a consumer of the last nest reads a semaphore that earlier nests signalled, and one of the
// first nest a semaphore that later nests signal; each engine's signals of the other statements
// stand as one term. The reused allocation is proved; a base one signal short, a wait one signal
// early, a wait without its base are refuted safe at the last nest, and a base one signal long
// refuted exact, as the explorer says too.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "prover/detail/smt.h"
#include "prover/prove_support.h"
#include "support/reused_allocation.h"

using namespace syncbisim;
using prover::Answer;

namespace {

// Four nests; E0's signals all go to one chain of semaphores. Nest C adds one signal per
// iteration of C and holds an inner loop of its own semaphore.
const char* kFourNests = R"(syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: P0
  E1: C0
}
loop B trip 1..3 {
  E0: P1 Q1
  E1: C1
}
loop C trip 1..2 {
  E0: P2
  loop CI trip 1..3 {
    E0: Q2
  }
  E1: C2
}
loop D trip 1..3 {
  E0: P3 Q3
  E1: C3
}
dep P0 -> C0
dep Q1 -> C1
dep P1 -> C1 distance B=1
dep Q2 -> C2
dep P3 -> C3
dep Q3 -> C3 distance D=1
)";

std::string reused_impl(const formats::LoadedProgram& spec) {
  const auto a = test::reused_per_loop(spec);
  REQUIRE(a.exact());
  return formats::write_text(a.impl);
}

// `text` with the last occurrence of `from` replaced by `to` (the wait of the last nest).
std::string replace_last(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.rfind(from);
  REQUIRE_MESSAGE(at != std::string::npos, from, " not in\n", text);
  return text.replace(at, from.size(), to);
}

std::map<std::string, prover::ConsumerResult> by_consumer(const prover::ProveResult& r) {
  std::map<std::string, prover::ConsumerResult> out;
  for (const auto& c : r.consumers) out.emplace(c.instr, c);
  return out;
}

// The explorer's verdict on the same pair (small enough to search exhaustively).
checker::Verdict explored(const formats::LoadedProgram& spec, const formats::LoadedProgram& impl) {
  auto pair = checker::ProgramPair::make(spec.program, impl.program);
  REQUIRE(pair.ok());
  const auto r = checker::check((*pair)->lockstep(), checker::CheckOptions{});
  REQUIRE(r.exhaustive);
  return r.verdict;
}

}  // namespace

TEST_CASE("prover: a semaphore reused along four nests is proved, and its mutants at the last nest refuted") {
  const auto spec = test::load_inline(kFourNests);
  const auto text = reused_impl(spec);
  // E0's signals of every nest count on one semaphore; the last nest waits for base + w.
  REQUIRE(text.find("semaphores s_A_E0 s_A_E1 s_CI_E0") != std::string::npos);
  const std::string wait = "[w := isgt(w, 0) * (w + r_A)]";
  const std::string bump = "[r_A := r_A + rh_B]";
  REQUIRE(text.find(bump) != std::string::npos);

  const auto good = test::load_inline(text);
  const auto r = test::prove_pair(spec, good.program);
  CHECK(r.verdict == Answer::Proved);
  for (const auto& c : r.consumers) CHECK_MESSAGE(c.safe.answer == Answer::Proved, test::describe(c));

  struct Mutant {
    const char* what;
    std::string text;
    bool unsafe;  // else over-synchronized
  };
  const Mutant mutants[] = {
      {"a wait one signal early", replace_last(text, wait, "[w := isgt(w, 0) * (w + r_A - 1)]"), true},
      {"a wait without its base", replace_last(text, wait, "[w := isgt(w, 0) * w]"), true},
      {"a base one signal short", replace_last(text, bump, "[r_A := r_A + rh_B - 1]"), true},
      {"a base one signal long", replace_last(text, bump, "[r_A := r_A + rh_B + 1]"), false},
  };
  for (const auto& m : mutants) {
    CAPTURE(m.what);
    const auto impl = test::load_inline(m.text);
    const auto got = by_consumer(test::prove_pair(spec, impl.program));
    // The first three nests' consumers are untouched.
    for (const auto* c : {"C0", "C1", "C2"}) {
      CHECK_MESSAGE(got.at(c).safe.answer == Answer::Proved, test::describe(got.at(c)));
      CHECK_MESSAGE(got.at(c).exact.answer == Answer::Proved, test::describe(got.at(c)));
    }
    const auto& c3 = got.at("C3");
    if (m.unsafe) {
      CHECK_MESSAGE(c3.safe.answer == Answer::Refuted, test::describe(c3));
      CHECK(explored(spec, impl) == checker::Verdict::UnderSynchronized);
    } else {
      CHECK_MESSAGE(c3.safe.answer == Answer::Proved, test::describe(c3));
      CHECK_MESSAGE(c3.exact.answer == Answer::Refuted, test::describe(c3));
      CHECK(explored(spec, impl) == checker::Verdict::OverSynchronized);
    }
  }
}

TEST_CASE("prover: same_linear sees a chain of sums equal to their total, and nothing else") {
  prover::smt::Context ctx;
  const auto a = ctx.var("a"), b = ctx.var("b"), c = ctx.var("c");
  // A base built one step at a time (b := b + w per nest) against the signals' count.
  auto base = ctx.nat(0);
  std::vector<prover::smt::Term> counts;
  for (int k = 0; k < 50; ++k) {
    const auto e = ctx.var("E" + std::to_string(k));
    base = base + 2 * e;
    counts.push_back(e);
    counts.push_back(e);
  }
  CHECK(ctx.same_linear(base, ctx.sum(counts)));
  CHECK_FALSE(ctx.same_linear(base, ctx.sum(counts) + 1));
  CHECK_FALSE(ctx.same_linear(base, ctx.sum(counts) - counts.back()));
  CHECK(ctx.same_linear(a + 2 * b - b, b + a));
  CHECK(ctx.same_linear(3 * (a - c), (a + a + a) - 3 * c));
  // An ite or a product of unknowns is an atom of its own: equal only to itself.
  const auto t = ite(a > b, a, b);
  CHECK(ctx.same_linear(t + c, c + t));
  CHECK_FALSE(ctx.same_linear(t, a));
  CHECK_FALSE(ctx.same_linear(a * b, a * c));
  CHECK(ctx.same_linear(a * b + 1, ctx.nat(1) + a * b));
  // Coefficients past 64 bits give no answer (never a wrong one).
  const auto big = (std::uint64_t{1} << 40) * ((std::uint64_t{1} << 40) * a);
  CHECK_FALSE(ctx.same_linear(big, big + 1));
}
