// paper §6.2's ALU reductions (allocator/reductions.h): what loop-invariant code motion hoists
// and where, what common-subexpression elimination shares, the ALU per issue before and after,
// and that neither changes a single threshold (checked by executing the impl's registers).
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "allocator/allocate.h"
#include "allocator/stats.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "model/walk.h"
#include "support/programs.h"

using namespace syncbisim;
using allocator::Strategy;

namespace {

// A spec of tests/inputs/allocator.
formats::LoadedProgram input(const std::string& name) { return test::load_source("tests/inputs/allocator/" + name); }

allocator::Allocation run(const formats::LoadedProgram& spec, Strategy s, bool licm, bool cse) {
  allocator::Options o{s, false};
  o.licm = licm;
  o.cse = cse;
  auto a = allocator::allocate(spec.program, spec.index, o);
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().to_string()));
  return std::move(*a);
}

allocator::Stats stats(const allocator::Allocation& a) {
  auto ix = model::ProgramIndex::build(a.impl);
  REQUIRE(ix.ok());
  auto s = allocator::compute_stats(a.impl, {});
  REQUIRE(s.ok());
  return *s;
}

// The allocation of a spec without reductions and with the ones asked for, and their impls' text.
struct Reduced {
  allocator::Allocation off, on;
  std::string off_text, text;
};
Reduced reduce(const std::string& spec_file, Strategy s, bool licm, bool cse) {
  const auto spec = input(spec_file);
  Reduced r{run(spec, s, false, false), run(spec, s, licm, cse)};
  r.off_text = formats::write_text(r.off.impl);
  r.text = formats::write_text(r.on.impl);
  return r;
}

}  // namespace

TEST_CASE("LICM: a threshold invariant in the consumer's loop is computed once before it") {
  const auto r = reduce("reductions_invariant.sb", Strategy::PerInstruction, true, false);
  INFO(r.text);
  // before loop k, in n's body, on the consumer's engine; the wait reads it directly
  CHECK(r.text.find("[h_k := isgt(rh_n, 1) * (r_n - 1)]") != std::string::npos);
  CHECK(r.text.find("{s_P >= h_k} C") != std::string::npos);
  const auto before = stats(r.off), after = stats(r.on);
  CHECK(before.alu_max == 3);
  CHECK(after.alu_max == 0);
  // the same registers plus the cache, minus the temporary w
  CHECK(after.registers_max == before.registers_max);
}

TEST_CASE("LICM: the per-engine decode keeps only the innermost contribution per issue") {
  // The outer share r_A + 2 * r_D of the decode is a partial sum cached before B.
  const auto r = reduce("reductions_decode.sb", Strategy::PerEngine, true, false);
  INFO(r.off_text, "\n", r.text);
  CHECK(r.text.find("[h_B := r_A + 2 * r_D]") != std::string::npos);
  CHECK(stats(r.on).alu_max < stats(r.off).alu_max);
}

TEST_CASE("CSE: consumers of one region share the mask and the count") {
  const auto r = reduce("reductions_shared.sb", Strategy::PerInstruction, false, true);
  INFO(r.off_text, "\n", r.text);
  // C and D wait for P with the same threshold, D for Q with the same again: computed once
  CHECK(r.text.find("[cs1 := isgt(rh_A, 1) * (r_A - 1)]") != std::string::npos);
  CHECK(r.text.find("{s_P >= cs1} C") != std::string::npos);
  CHECK(r.text.find("{s_P >= cs1, s_Q >= cs1} D") != std::string::npos);
  const auto before = stats(r.off), after = stats(r.on);
  CHECK(before.alu_max == 6);  // D: two thresholds of 3 operators
  CHECK(after.alu_max == 3);
  CHECK(after.alu_mean < before.alu_mean);
}

TEST_CASE("no reductions: the paper's form, a temporary per wait right before the consumer") {
  const auto text =
      formats::write_text(run(input("reductions_shared.sb"), Strategy::PerInstruction, false, false).impl);
  INFO(text);
  CHECK(text.find("[w := isgt(rh_A, 1) * (r_A - 1)] {s_P >= w} C") != std::string::npos);
  CHECK(text.find("[h_") == std::string::npos);
  CHECK(text.find("cs1") == std::string::npos);
}
