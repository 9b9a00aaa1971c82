// checker::ProgramPair::from_loaded, the one way in for programs read from files or given to the
// public API: the indexes given are used as they are, the spec is unrolled where the impl unrolls
// loops, and each diagnostic names the file it is about.
#include <doctest/doctest.h>

#include <string>

#include "allocator/allocate.h"
#include "analysis/unroll.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "support/programs.h"

using namespace syncbisim;

namespace {

allocator::Allocation per_loop(const formats::LoadedProgram& spec) {
  allocator::Options o;
  o.strategy = allocator::Strategy::PerLoop;
  auto a = allocator::allocate(spec.program, spec.index, o);
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().to_string()));
  return std::move(*a);
}

checker::CheckResult search(const checker::ProgramPair& pair) { return checker::check(pair, checker::CheckOptions{}); }

}  // namespace

TEST_CASE("from_loaded makes the pair make() makes, from the indexes given") {
  const auto spec = test::load_source("corpus/figures/fig1_motivating.json");
  const auto impl = per_loop(spec).impl;
  auto impl_ix = model::ProgramIndex::build(impl);
  REQUIRE(impl_ix.ok());
  auto matched = checker::ProgramPair::from_loaded(spec.program, spec.index, "s.json", impl, *impl_ix, "i.json");
  REQUIRE(matched.ok());
  CHECK_FALSE(matched->unrolled.has_value());
  auto made = checker::ProgramPair::make(spec.program, impl);
  REQUIRE(made.ok());
  const auto a = search(*matched->pair);
  const auto b = search(**made);
  CHECK(a.verdict == checker::Verdict::Bisimilar);
  CHECK(a.verdict == b.verdict);
  CHECK(a.states == b.states);
  CHECK(a.transitions == b.transitions);
  CHECK(a.states > 10);
}

TEST_CASE("from_loaded: the two programs the wrong way round are said to be, naming the first") {
  const auto spec = test::load_source("corpus/figures/fig1_motivating.json");
  const auto impl = per_loop(spec).impl;
  auto impl_ix = model::ProgramIndex::build(impl);
  REQUIRE(impl_ix.ok());
  auto m = checker::ProgramPair::from_loaded(impl, *impl_ix, "i.json", spec.program, spec.index, "s.json");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().rule == "wrong-order");
  CHECK(m.error().file == "i.json");
  CHECK(m.error().message.find("s.json a spec") != std::string::npos);
}

TEST_CASE("from_loaded: an impl that unrolls a loop is paired with the spec unrolled to match") {
  const auto spec = test::load_source("corpus/figures/fig1_motivating.json");
  auto unrolled = analysis::unroll(spec.program, spec.index, {"A"});
  REQUIRE(unrolled.ok());
  auto unrolled_ix = model::ProgramIndex::build(*unrolled);
  REQUIRE(unrolled_ix.ok());
  const auto impl = per_loop(formats::LoadedProgram{*unrolled, *unrolled_ix}).impl;
  auto impl_ix = model::ProgramIndex::build(impl);
  REQUIRE(impl_ix.ok());
  auto m = checker::ProgramPair::from_loaded(spec.program, spec.index, "s.json", impl, *impl_ix, "i.json");
  REQUIRE_MESSAGE(m.ok(), (m.ok() ? "" : m.error().to_string()));
  REQUIRE(m->unrolled.has_value());
  CHECK(m->unrolled->loops == std::vector<std::string>{"A"});
  CHECK(m->unrolled->program == *unrolled);
  CHECK(m->pair->spec_index().instrs.size() == unrolled_ix->instrs.size());
  CHECK(m->unrolled->note().find("A") != std::string::npos);
  CHECK(search(*m->pair).verdict == checker::Verdict::Bisimilar);
}

TEST_CASE("from_loaded: an impl of another spec is refused, naming the impl") {
  const auto spec = test::load_source("corpus/figures/fig1_motivating.json");
  const auto other = test::load_source("corpus/kernels/tiled_matmul.json");
  const auto impl = per_loop(other).impl;
  auto impl_ix = model::ProgramIndex::build(impl);
  REQUIRE(impl_ix.ok());
  auto m = checker::ProgramPair::from_loaded(spec.program, spec.index, "s.json", impl, *impl_ix, "i.json");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().file == "i.json");
  CHECK(m.error().rule.rfind("impl-", 0) == 0);
}
