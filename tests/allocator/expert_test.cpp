// The expert strategy (allocator/expert.h, docs/allocator.md "The expert strategy"): where it
// differs from per-loop (dedicated semaphores, one threshold register per loop updated at its tail
// and shared by the waits, a wait reading a loop register directly), every output bisimilar to its
// spec, and a broken threshold rejected by the checker.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "allocator/stats.h"
#include "allocator/tail_thresholds.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/expr_parser.h"
#include "model/walk.h"
#include "support/programs.h"

using namespace syncbisim;
using allocator::Strategy;

namespace {

// Two producers of one (loop, engine) pair, owed one iteration late by consumers in two regions of
// A on E1 (loop B between them, so no region holds both); a same-iteration dependency in D.
const char* kSpec = R"(syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: P1 P2
  E1: C1
  loop B trip 2 {
    E1: X
  }
  E1: C2
}
loop D trip 2 {
  E0: Q
  E1: R
}
dep P1 -> C1 distance A=1
dep P2 -> C1 distance A=1
dep P1 -> C2 distance A=1
dep Q -> R
)";

allocator::Allocation allocate(const formats::LoadedProgram& spec, allocator::Options o) {
  auto a = allocator::allocate(spec.program, spec.index, o);
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().to_string()));
  return std::move(*a);
}

checker::Verdict verdict(const formats::LoadedProgram& spec, const model::Program& impl) {
  auto pair = checker::ProgramPair::make(spec.program, impl);
  REQUIRE_MESSAGE(pair.ok(), (pair.ok() ? "" : pair.error().to_string()));
  const auto r = checker::check((*pair)->lockstep(), {});
  REQUIRE(r.exhaustive);
  return r.verdict;
}

struct Seen {
  std::vector<std::string> waits;            // "C1: s_P1 >= t_A", in walk order
  std::vector<std::string> assignments;      // "E1: t_A := ..." of registers named t_*
  std::vector<std::string> last_of_a_on_e1;  // the last item of A's body on E1
};

std::string wait_text(const model::Wait& w) {
  if (const auto* r = std::get_if<std::string>(&w.ge)) return w.sem + " >= " + *r;
  return w.sem + " >= " + std::to_string(std::get<std::uint64_t>(w.ge));
}

Seen look(const model::Program& impl) {
  Seen s;
  model::for_each_stream(impl.body, [&](const model::Stream& st) {
    for (const auto& item : st.items) {
      if (const auto* r = std::get_if<model::RegOp>(&item); r && r->dst.rfind("t_", 0) == 0)
        s.assignments.push_back(st.engine + ": " + r->dst + " := " + r->expr.to_string());
      if (const auto* in = std::get_if<model::Instr>(&item))
        for (const auto& w : in->waits) s.waits.push_back(in->id + ": " + wait_text(w));
    }
  });
  for (const auto& stmt : impl.body)
    if (const auto* l = std::get_if<model::Loop>(&stmt.node); l && l->id == "A") {
      const auto* last = std::get_if<model::Block>(&l->body.back().node);
      REQUIRE(last);
      for (const auto& st : last->streams)
        if (st.engine == "E1" && !st.items.empty())
          if (const auto* r = std::get_if<model::RegOp>(&st.items.back()))
            s.last_of_a_on_e1.push_back(r->dst + " := " + r->expr.to_string());
    }
  return s;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Every t_ assignment of `impl` with its expression replaced by `e`.
model::Program with_threshold(model::Program impl, const model::Expr& e) {
  const std::function<void(std::vector<model::Stmt>&)> walk = [&](std::vector<model::Stmt>& body) {
    for (auto& stmt : body) {
      if (auto* b = std::get_if<model::Block>(&stmt.node)) {
        for (auto& st : b->streams)
          for (auto& item : st.items)
            if (auto* r = std::get_if<model::RegOp>(&item); r && r->dst.rfind("t_", 0) == 0) r->expr = e;
      } else if (auto* l = std::get_if<model::Loop>(&stmt.node)) {
        walk(l->body);
      } else if (auto* c = std::get_if<model::Cond>(&stmt.node)) {
        walk(c->then_body);
        walk(c->else_body);
      }
    }
  };
  walk(impl.body);
  return impl;
}

}  // namespace

TEST_CASE("expert: dedicated semaphores, one tail-updated threshold shared by three waits, a direct loop register") {
  const auto spec = test::load_text(kSpec);
  const auto expert = allocate(spec, {Strategy::Expert, false});
  const auto per_loop = allocate(spec, {Strategy::PerLoop, false});
  const auto e = look(expert.impl), p = look(per_loop.impl);

  // Dedicated semaphores, only for producers: s_P1, s_P2, s_Q; per-loop declares one per (loop,
  // engine) pair with instructions (paper Figure 8) and decodes s_A_E0 with N = 2.
  CHECK(expert.impl.semaphores == std::vector<std::string>{"s_P1", "s_P2", "s_Q"});
  CHECK(per_loop.impl.semaphores.size() == 5);
  // One threshold register on E1, computed before A and as the last item of A's body: the next
  // iteration's isgt(rh_A, 1) * (r_A - 1), read with rh_A + 1 and r_A + 1: isgt(rh_A, 0) * r_A.
  const std::string next = "t_A := isgt(rh_A, 0) * r_A";
  CHECK(e.assignments == std::vector<std::string>{"E1: " + next, "E1: " + next});
  CHECK(e.last_of_a_on_e1 == std::vector<std::string>{next});
  // The three waits read it directly, in two regions; R compares s_Q with the loop register r_D.
  CHECK(e.waits == std::vector<std::string>{"C1: s_P1 >= t_A", "C1: s_P2 >= t_A", "C2: s_P1 >= t_A", "R: s_Q >= r_D"});
  // Per-loop computes into temporaries before each consumer, C1's and C2's separately.
  CHECK(p.assignments.empty());
  CHECK(has(p.waits, "C2: s_A_E0 >= w"));
  CHECK(has(p.waits, "R: s_D_E0 >= w"));

  // No ALU operation per issue (the thresholds are per iteration); per-loop has some.
  auto ix_e = model::ProgramIndex::build(expert.impl);
  auto ix_p = model::ProgramIndex::build(per_loop.impl);
  REQUIRE(ix_e.ok());
  REQUIRE(ix_p.ok());
  const auto se = allocator::compute_stats(expert.impl, {});
  const auto sp = allocator::compute_stats(per_loop.impl, {});
  REQUIRE(se.ok());
  REQUIRE(sp.ok());
  CHECK(se->alu_max == 0);
  CHECK(sp->alu_max >= 3);

  CHECK(verdict(spec, expert.impl) == checker::Verdict::Bisimilar);
  CHECK(verdict(spec, per_loop.impl) == checker::Verdict::Bisimilar);
}

TEST_CASE("expert: a judge that never minds sharing gives the pair one semaphore, decoded in the shared threshold") {
  const auto spec = test::load_text(kSpec);
  allocator::Options o{Strategy::Expert, false};
  int asked = 0;
  o.judge = [&](const model::Program&, const model::ProgramIndex&, const model::Program&) -> std::optional<std::uint64_t> {
    ++asked;
    return 0;
  };
  const auto a = allocate(spec, o);
  CHECK(asked == 2);  // the static allocation, then sharing the one pair with two producers
  CHECK(a.impl.semaphores == std::vector<std::string>{"s_A_E0", "s_Q"});
  const auto s = look(a.impl);
  // P1 is the first of two signalling producers (K = 1), P2 the second: two thresholds, each once per
  // iteration; C2 shares C1's first one.
  CHECK(s.assignments.size() == 4);
  CHECK(has(s.waits, "C2: s_A_E0 >= t_A"));
  CHECK(has(s.waits, "C1: s_A_E0 >= t_A"));
  CHECK(has(s.waits, "C1: s_A_E0 >= t_A_2"));
  CHECK(verdict(spec, a.impl) == checker::Verdict::Bisimilar);
  // A judge that finds sharing slower keeps the dedicated semaphores.
  o.judge = [](const model::Program&, const model::ProgramIndex&, const model::Program& impl) -> std::optional<std::uint64_t> { return 10 - impl.semaphores.size(); };
  CHECK(allocate(spec, o).impl.semaphores == std::vector<std::string>{"s_P1", "s_P2", "s_Q"});
}

TEST_CASE("expert: a broken threshold is rejected by the checker") {
  const auto spec = test::load_text(kSpec);
  const auto expert = allocate(spec, {Strategy::Expert, false});
  REQUIRE(verdict(spec, expert.impl) == checker::Verdict::Bisimilar);
  // One iteration short (the current iteration's value, not the next one's): too low, the
  // consumer may issue before its producer retired.
  CHECK(verdict(spec, with_threshold(expert.impl, test::parse_expr("isgt(rh_A, 1) * (r_A - 1)"))) ==
        checker::Verdict::UnderSynchronized);
  // One too many: waits for a producer instance not owed yet.
  CHECK(verdict(spec, with_threshold(expert.impl, test::parse_expr("isgt(rh_A, 0) * (r_A + 1)"))) ==
        checker::Verdict::OverSynchronized);
}

TEST_CASE("expert: next_iteration reads each bumped register as itself plus one") {
  const auto x = test::parse_expr("isgt(rh_A, 2) * (3 * r_A - 1) + r_B");
  CHECK(allocator::next_iteration(x, {"r_A", "rh_A"}).to_string() == "isgt(rh_A, 1) * (3 * (r_A + 1) - 1) + r_B");
  CHECK(allocator::next_iteration(test::parse_expr("isgt(rh_A, 0) * (r_A - 2)"), {"r_A", "rh_A"}).to_string() == "r_A - 1");
  CHECK(allocator::next_iteration(x, {}).to_string() == x.to_string());
}
