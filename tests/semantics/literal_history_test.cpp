// An independent oracle for condition (1): store H_e(i, P) for every common-loop iteration
// vector i, literally as the paper defines it, and sum over i ⪯ t. The spec system computes the
// same from its pruned history records; a property compares the two on random programs and
// random schedules (docs/semantics.md §2: the spec side must be right for any distance vector).
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <vector>

#include "generators/spec_gen.h"
#include "model/index.h"
#include "programs.h"
#include "semantics/spec_system.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using semantics::Step;
using semantics::StepKind;

namespace {

class LiteralHistory {
 public:
  explicit LiteralHistory(const semantics::CompiledProgram& p) : p_(p), h_(p.deps.size()) {
    // @top's single iteration has started at the outset: one entry of @top in iteration (1).
    for (std::size_t d = 0; d < p.deps.size(); ++d)
      if (p.deps[d].P == model::kTop) h_[d][{1}] += 1;
  }

  // Called after every step: counts an iteration of P started by the consumer's engine, in the
  // common-loop iteration it belongs to.
  void observe(const semantics::SpecState& after, const Step& st) {
    if (st.kind != StepKind::LoopEntry && st.kind != StepKind::Choose) return;
    const auto l = st.kind == StepKind::Choose ? st.aux : st.arg;
    const auto& frames = after.control.engines[st.engine].frames;
    if (frames[l].iter == 0) return;  // a trip of 0: nothing started
    for (std::size_t d = 0; d < p_.deps.size(); ++d) {
      const auto& dep = p_.deps[d];
      if (dep.P != l || dep.consumer_engine != st.engine) continue;
      std::vector<std::int64_t> vec;
      for (auto c : dep.common) vec.push_back(frames[c].iter);
      h_[d][vec] += 1;
    }
  }

  std::uint64_t owed(std::size_t d, const std::vector<std::int64_t>& t) const {
    std::uint64_t sum = 0;
    for (const auto& [vec, count] : h_[d])
      if (vec <= t) sum += count;  // std::vector's < is lexicographic: ⪯
    return sum;
  }

 private:
  const semantics::CompiledProgram& p_;
  std::vector<std::map<std::vector<std::int64_t>, std::uint64_t>> h_;
};

}  // namespace

TEST_CASE("condition (1) from pruned history equals the literal sum over H on random programs") {
  test::rc_check(
      "spec owed == literal owed",
      [] {
        generators::SpecGenOptions opt;
        opt.deps.allocatable_only = false;
        const auto spec = test::gen_loaded_spec(opt);
        const auto& code = spec->code;
        const semantics::SpecSystem sys(code);
        const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
        std::mt19937_64 rng(seed);
        auto s = sys.initial();
        LiteralHistory lit(code);
        std::vector<Step> steps;
        std::size_t compared = 0;
        for (int n = 0; n < 400; ++n) {
          for (semantics::EngineId e = 0; e < code.engine_count(); ++e) {
            // can_issue's allocation-free check agrees with the explained one.
            bool all = sys.control().next_op(s.control, e).kind == semantics::OpKind::Instr;
            for (const auto& c : sys.explain(s, e)) {
              all = all && c.satisfied();
              if (c.underflow) continue;
              RC_ASSERT(c.owed == lit.owed(c.dep, std::vector<std::int64_t>(c.target.begin(), c.target.end())));
              ++compared;
            }
            RC_ASSERT(sys.can_issue(s, e) == all);
          }
          steps = semantics::expanded(sys, s);
          if (steps.empty()) break;
          const auto st = steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(rng)];
          sys.apply(s, st);
          lit.observe(s, st);
        }
        RC_CLASSIFY(compared > 0, "compared some non-underflowing check");
      },
      300);
}
