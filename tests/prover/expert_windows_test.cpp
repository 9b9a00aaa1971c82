// The expert strategy on a kernel with more producer pairs than it judges on the whole program
// (docs/allocator.md "The expert strategy"): each top-level statement is judged as a spec of its
// own, the choices made there are the ones the whole allocation takes, and the prover proves it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "prover/prove_support.h"
#include "support/programs.h"

using namespace syncbisim;


TEST_CASE("expert: past 32 producer pairs each top-level statement is judged on its own, and the result is proved") {
  const int nests = 40;
  const auto spec = test::load_inline(test::nest_chain_spec(nests));
  allocator::Options o;
  o.strategy = allocator::Strategy::Expert;
  std::vector<std::string> windows;  // the loop of each spec the judge saw
  // Sharing is free in the even nests and costs in the odd ones.
  o.judge = [&](const model::Program& s, const model::ProgramIndex& ix,
                const model::Program& impl) -> std::optional<std::uint64_t> {
    CHECK(s.body.size() == 1);
    CHECK(s.deps.size() == 2);  // the two inside the nest; those to the next nest cross its edge
    CHECK(ix.loops.size() == 2);
    const auto& loop = ix.loops[1].name;
    if (windows.empty() || windows.back() != loop) windows.push_back(loop);
    if (std::stoi(loop.substr(1)) % 2 == 0) return 0;
    return 10 - impl.semaphores.size();
  };
  const auto a = allocator::allocate(spec.program, spec.index, o);
  REQUIRE_MESSAGE(a.ok(), a.error().to_string());
  CHECK(windows.size() == static_cast<std::size_t>(nests));
  bool noted = false;
  for (const auto& n : a->notes)
    noted = noted || n.find("of 40 producer pairs, 20 keep dedicated semaphores and 20 share one, judged a "
                            "top-level statement at a time (40 statements") != std::string::npos;
  CHECK(noted);
  for (const auto& d : a->decisions) {
    if (d.label.rfind("C", 0) == 0) continue;  // C_k -> P_k+1: E1's only producer
    const int k = std::stoi(d.label.substr(1, d.label.find(' ') - 1));
    const std::string shared = "s_L" + std::to_string(k) + "_E0";
    CHECK_MESSAGE((d.semaphore == shared) == (k % 2 == 0), d.label, " on ", d.semaphore);
  }
  const auto r = test::prove_pair(spec, a->impl);
  CHECK(r.consumers.size() == static_cast<std::size_t>(2 * nests - 1));
  for (const auto& c : r.consumers) {
    CHECK_MESSAGE(c.safe.answer == prover::Answer::Proved, test::describe(c));
    CHECK_MESSAGE(c.exact.answer == prover::Answer::Proved, test::describe(c));
  }
}
