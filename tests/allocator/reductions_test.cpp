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

using namespace syncbisim;
using allocator::Strategy;

namespace {

formats::LoadedProgram load(const std::string& text) {
  auto r = formats::load_program_text(text, "test");
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  return std::move(*r);
}

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
  auto s = allocator::compute_stats(a.impl, *ix, {});
  REQUIRE(s.ok());
  return *s;
}

// A consumer in the inner loop k waiting for a producer of the outer loop n (offset 1 on n):
// its whole threshold isgt(rh_n, 1) * (r_n - 1) is invariant in k.
const char* kInvariant = R"(
syncbisim spec/1
engines E0 E1
loop n trip 1..3 {
  E0: P
  loop k trip 1..3 {
    E1: C
  }
}
dep P -> C distance n=1
)";

// Two consumers of one region on one engine with the same mask and the same count.
const char* kShared = R"(
syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: P Q
  E1: C D
}
dep P -> C distance A=1
dep P -> D distance A=1
dep Q -> D distance A=1
)";

}  // namespace

TEST_CASE("LICM: a threshold invariant in the consumer's loop is computed once before it") {
  const auto spec = load(kInvariant);
  const auto off = run(spec, Strategy::PerInstruction, false, false);
  const auto on = run(spec, Strategy::PerInstruction, true, false);
  const auto text = formats::write_text(on.impl);
  INFO(text);
  // before loop k, in n's body, on the consumer's engine; the wait reads it directly
  CHECK(text.find("[h_k := isgt(rh_n, 1) * (r_n - 1)]") != std::string::npos);
  CHECK(text.find("{s_P >= h_k} C") != std::string::npos);
  const auto before = stats(off), after = stats(on);
  CHECK(before.alu_max == 3);
  CHECK(after.alu_max == 0);
  // the same registers plus the cache, minus the temporary w
  CHECK(after.registers_max == before.registers_max);
}

TEST_CASE("LICM: the per-engine decode keeps only the innermost contribution per issue") {
  // C waits on E0's engine semaphore; the decode sums E0's counted instructions in A and D
  // (outside B, invariant in B) and in B (inside): the outer share r_A + 2 * r_D is a partial
  // sum cached before B.
  const auto spec = load(R"(
syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: X
  loop D trip 1..2 {
    E0: Y Z
  }
  loop B trip 1..3 {
    E0: P
    E1: C
  }
}
dep P -> C distance B=1
)");
  const auto off = run(spec, Strategy::PerEngine, false, false);
  const auto on = run(spec, Strategy::PerEngine, true, false);
  const auto text = formats::write_text(on.impl);
  INFO(formats::write_text(off.impl));
  INFO(text);
  CHECK(text.find("[h_B := r_A + 2 * r_D]") != std::string::npos);
  CHECK(stats(on).alu_max < stats(off).alu_max);
}

TEST_CASE("CSE: consumers of one region share the mask and the count") {
  const auto spec = load(kShared);
  const auto off = run(spec, Strategy::PerInstruction, false, false);
  const auto on = run(spec, Strategy::PerInstruction, false, true);
  const auto text = formats::write_text(on.impl);
  INFO(formats::write_text(off.impl));
  INFO(text);
  // C and D wait for P with the same threshold, D for Q with the same again: computed once
  CHECK(text.find("[cs1 := isgt(rh_A, 1) * (r_A - 1)]") != std::string::npos);
  CHECK(text.find("{s_P >= cs1} C") != std::string::npos);
  CHECK(text.find("{s_P >= cs1, s_Q >= cs1} D") != std::string::npos);
  const auto before = stats(off), after = stats(on);
  CHECK(before.alu_max == 6);  // D: two thresholds of 3 operators
  CHECK(after.alu_max == 3);
  CHECK(after.alu_mean < before.alu_mean);
}

TEST_CASE("no reductions: the paper's form, a temporary per wait right before the consumer") {
  const auto spec = load(kShared);
  const auto text = formats::write_text(run(spec, Strategy::PerInstruction, false, false).impl);
  INFO(text);
  CHECK(text.find("[w := isgt(rh_A, 1) * (r_A - 1)] {s_P >= w} C") != std::string::npos);
  CHECK(text.find("[h_") == std::string::npos);
  CHECK(text.find("cs1") == std::string::npos);
}
