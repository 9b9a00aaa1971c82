#pragma once
// The count a consumer waits for, for ANY dependency (docs/allocator.md "Beyond the paper"):
// the spec's condition (docs/semantics.md, "The spec's condition") asks, unless some component
// of the target t = v - δ is <= 0, for R(p) >= Q(t) = Σ_{i ⪯ t} H_e(i, P). This file gives Q(t)
// as an expression over the consumer engine's registers, and the underflow test as a mask.
// Paper §5.2 covers δ non-zero at S only, with P = S or a nested P at offsets 0 / 1; here:
//   Live    δ = 0:                             Q = r_P
//   Flat    constant trips from c_j* down to P: Q = r_P - h·D (+ h), D the flattened distance
//   Ring    δ only at S, any P:                Q = r_P at the start of S's iteration v_S - k + 1
//   Window  δ at a loop above S, constant trips below the loop under c_j*:
//           Q = min(snapshot(α) + h·(S-iterations of α up to t), snapshot(α + 1))
//   Whole   δ = (0 .. 0, k at c_j*, * below it) (docs/semantics.md §2, "Whole iterations"):
//           Q = snapshot(α + 1), every P-iteration of the iterations of c_j* up to α; exact
//   Bound   anything else: Q' = snapshot(α + 1) >= Q, safe but not exact
//   NeverBinds  a component that always underflows (a distance at @top, or at least the
//           loop's largest trip): no wait at all.
// (c_j* is the outermost common loop with a non-zero distance, α = v_j* - δ_j* the iteration of
// it the target lies in, h the P-iterations per S-iteration.)
#include <optional>
#include <string>

#include "allocator/registers.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

struct TargetCount {
  enum class Form : std::uint8_t { Live, Flat, Ring, Window, Bound, NeverBinds, Whole };
  Form form = Form::Live;
  std::optional<model::Expr> mask;  // Π isgt(rh_cj, δ_j) over the non-zero components; none if all zero
  model::Expr count;                // Q(t) while the mask is 1 (an upper bound for Bound)
  std::string how;                  // for the decision line
  bool exact() const { return form != Form::Bound; }
};

const char* to_string(TargetCount::Form f);

// Names the snapshot registers it uses (declaring their rings); reads nothing.
TargetCount target_count(const SpecFacts& facts, Registers& regs, const analysis::DependencyInfo& d);

}  // namespace syncbisim::allocator
