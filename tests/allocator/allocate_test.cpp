// The allocator on the paper's figures: waits as functions of the registers (Figures 3, 4, 7,
// 8), correspondence of every strategy's output, and random lock-step runs against the spec.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "allocator/stats.h"
#include "analysis/correspondence.h"
#include "analysis/dependency_analysis.h"
#include "formats/expr_parser.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "model/walk.h"
#include "semantics/lockstep.h"
#include "support/programs.h"

using namespace syncbisim;
using allocator::Strategy;

namespace {

// A figure of the paper, from corpus/figures.
formats::LoadedProgram figure(const std::string& name) { return test::load_source("corpus/figures/" + name); }

allocator::Allocation run(const formats::LoadedProgram& spec, Strategy s, bool prune = false) {
  auto a = allocator::allocate(spec.program, spec.index, {s, prune});
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().to_string()));
  return std::move(*a);
}

// The waits of one instruction in the impl: (semaphore, threshold expression).
struct FoundWait {
  std::string sem;
  model::Expr value;
};
std::vector<FoundWait> waits_of(const model::Program& impl, const std::string& instr) {
  std::vector<FoundWait> out;
  model::for_each_stream(impl.body, [&](const model::Stream& s) {
    std::map<std::string, model::Expr> temps;
    for (const auto& item : s.items) {
      if (const auto* r = std::get_if<model::RegOp>(&item)) temps[r->dst] = r->expr;
      if (const auto* in = std::get_if<model::Instr>(&item); in && in->id == instr)
        for (const auto& w : in->waits) {
          if (const auto* reg = std::get_if<std::string>(&w.ge)) out.push_back({w.sem, temps.at(*reg)});
          else out.push_back({w.sem, model::Expr::constant(std::get<std::uint64_t>(w.ge))});
        }
    }
  });
  return out;
}

// The one wait of `instr` in `impl`, on semaphore `sem`: its threshold.
model::Expr the_wait(const model::Program& impl, const std::string& instr, const std::string& sem) {
  const auto w = waits_of(impl, instr);
  REQUIRE(w.size() == 1);
  CHECK(w[0].sem == sem);
  return w[0].value;
}

// Both thresholds agree for every reachable register value: 1 <= rh_A <= r_A <= 6 (the consumer
// issues inside an iteration of A). `rename` maps the paper's register names to the allocator's.
void same_threshold(const model::Expr& ours, const model::Expr& paper) {
  for (std::uint64_t r = 1; r <= 6; ++r)
    for (std::uint64_t rh = 1; rh <= r; ++rh) {
      const auto ours_v = ours.eval([&](const std::string& n) -> std::uint64_t {
        if (n == "r_A") return r;
        if (n == "rh_A") return rh;
        FAIL("unexpected register " << n);
        return 0;
      });
      const auto paper_v = paper.eval([&](const std::string& n) -> std::uint64_t { return n == "rA" ? r : rh; });
      INFO("r_A = " << r << ", rh_A = " << rh << ": ours " << ours.to_string() << ", paper " << paper.to_string());
      CHECK(ours_v == paper_v);
    }
}

}  // namespace

TEST_CASE("Figure 3: straight-line code, per-engine gives s_E0 >= 2") {
  const auto spec = figure("fig3_straight_line.json");
  CHECK(the_wait(run(spec, Strategy::PerEngine).impl, "I2", "s_E0") == model::Expr::constant(2));
  // the barrier baseline agrees: one region, the same ordinal
  const auto b = waits_of(run(spec, Strategy::Barrier).impl, "I2");
  REQUIRE(b.size() == 1);
  CHECK(b[0].value == model::Expr::constant(2));
}

TEST_CASE("Figure 4: barrier baseline, s0 >= 2 inside loop A with SYNC around it") {
  const auto a = run(figure("fig4_same_iteration.json"), Strategy::Barrier);
  CHECK(the_wait(a.impl, "I3", "s_E0") == model::Expr::constant(2));
  const auto text = formats::write_text(a.impl);
  INFO(text);
  CHECK(text.find("barrier") != std::string::npos);
}

TEST_CASE("Figure 7: per-instruction, w := isgt(rhA, 0) * rA on sI1") {
  const auto a = run(figure("fig7_fig8.json"), Strategy::PerInstruction);
  same_threshold(the_wait(a.impl, "I2", "s_I1"), test::parse_expr("isgt(rhA, 0) * rA"));
}

TEST_CASE("Figure 8: per-loop, w := isgt(rhA, 0) * (2 * rA) on the (A, E0) semaphore") {
  const auto a = run(figure("fig7_fig8.json"), Strategy::PerLoop);
  same_threshold(the_wait(a.impl, "I2", "s_A_E0"), test::parse_expr("isgt(rhA, 0) * (2 * rA)"));
  // Figure 8 declares two semaphores: (A, E0) and (A, E1)
  CHECK(a.impl.semaphores.size() == 2);
}

TEST_CASE("Figure 1: offset 2 on A, every strategy's wait") {
  const auto spec = figure("fig1_motivating.json");
  // per-instruction: s_I3 >= isgt(rh_A, 2) * (r_A - 2)
  same_threshold(waits_of(run(spec, Strategy::PerInstruction).impl, "I2").at(0).value,
                 test::parse_expr("isgt(rhA, 2) * (rA - 2)"));
  // per-loop: N = 1, K = 1
  same_threshold(waits_of(run(spec, Strategy::PerLoop).impl, "I2").at(0).value, test::parse_expr("isgt(rhA, 2) * (rA - 2)"));
  // per-engine: E1 retires I1 once, then I3 once per iteration: through iteration r_A - 2 that
  // is 1 + (r_A - 2) = r_A - 1
  same_threshold(waits_of(run(spec, Strategy::PerEngine).impl, "I2").at(0).value, test::parse_expr("isgt(rhA, 2) * (rA - 1)"));
}

TEST_CASE("Figure 1: resource figures of each strategy") {
  const auto spec = figure("fig1_motivating.json");
  struct Want {
    Strategy s;
    std::size_t sema, regs;
    std::uint32_t alu_max;
    std::uint64_t regops, barriers, code;
  };
  // A runs 3 times. Barrier: SYNC before A and at the end of each of its 3 iterations.
  // Per-loop: (@top, E0..E2) and (A, E1), (A, E2). Registers r_A, rh_A, w on every engine;
  // regops: 2 per iteration on 3 engines (18), rh_A := 0 on 3, w on E2 3 times = 24.
  for (const auto& w :
       {Want{Strategy::Barrier, 3, 0, 0, 0, 4, 248}, Want{Strategy::PerInstruction, 1, 3, 3, 24, 0, 236},
        Want{Strategy::PerLoop, 5, 3, 3, 24, 0, 276}, Want{Strategy::PerEngine, 3, 3, 3, 24, 0, 276},
        Want{Strategy::Auto, 5, 3, 3, 24, 0, 276}}) {
    INFO(allocator::to_string(w.s));
    const auto a = run(spec, w.s);
    auto ix = model::ProgramIndex::build(a.impl);
    REQUIRE(ix.ok());
    const auto st = allocator::compute_stats(a.impl, {});
    REQUIRE(st.ok());
    CHECK(st->semaphores == w.sema);
    CHECK(st->registers_max == w.regs);
    CHECK(st->alu_max == w.alu_max);
    CHECK(st->regops_executed == w.regops);
    CHECK(st->barriers_executed == w.barriers);
    CHECK(st->code_bytes == w.code);
  }
  // --prune-registers: rh_A and r_A only on E2, the consumer's engine
  const auto pruned = run(spec, Strategy::PerLoop, true);
  auto ix = model::ProgramIndex::build(pruned.impl);
  REQUIRE(ix.ok());
  const auto st = allocator::compute_stats(pruned.impl, {{"A", 5}});
  REQUIRE(st.ok());
  CHECK(st->registers_per_engine[0].second == 0);
  CHECK(st->registers_per_engine[2].second == 3);
  CHECK(st->regops_executed == 1 + 5 * 3);
}

TEST_CASE(
    "auto --barrier-fallback: non-allocatable dependencies get barrier() that resets nothing, never a resetting one") {
  const auto spec = test::load_source("tests/inputs/allocator/fallback_inner_range.sb");
  allocator::Options o{Strategy::Auto, false};
  o.barrier_fallback = true;
  auto r = allocator::allocate(spec.program, spec.index, o);
  REQUIRE(r.ok());
  const auto& a = *r;
  REQUIRE(a.decisions.size() == 1);
  CHECK(a.decisions[0].scheme == allocator::Scheme::Fallback);
  const auto text = formats::write_text(a.impl);
  INFO(text);
  CHECK(text.find("barrier()") != std::string::npos);
  CHECK(text.find("barrier\n") == std::string::npos);
  CHECK(waits_of(a.impl, "C").empty());
}

TEST_CASE("names: loop ids become identifiers, collisions get a suffix") {
  const auto spec = test::load_text(R"(
syncbisim spec/1
engines E0 E1
loop A trip 2 {
  cond C taken any {
    E0: P
  } else {
    E1: Q
  }
  E1: R
}
dep P -> R
)");
  const auto a = run(spec, Strategy::PerLoop);
  const auto w = waits_of(a.impl, "R");
  REQUIRE(w.size() == 1);
  CHECK(w[0].sem == "s_C_then_E0");
  CHECK(w[0].value.to_string() == "r_C_then");
}
