// Registers and semaphores reused by liveness (docs/allocator.md "Reusing registers and
// semaphores"): the rewritten impl behaves as before, which the explorer judges against the spec;
// a semaphore reused one signal too early is caught.
#include <doctest/doctest.h>

#include <functional>
#include <numeric>
#include <string>

#include "allocator/allocate.h"
#include "allocator/budget.h"
#include "allocator/register_reuse.h"
#include "allocator/semaphore_reuse.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "support/programs.h"
#include "support/rapidcheck_doctest.h"
#include "support/reused_allocation.h"

using namespace syncbisim;
using test::reused_per_loop;

namespace {

checker::CheckResult check_reused(const model::Program& spec, const model::Program& impl, std::size_t max_states = 2000000) {
  auto pair = checker::ProgramPair::make(spec, impl);
  REQUIRE_MESSAGE(pair.ok(), (pair.ok() ? "" : pair.error().to_string()));
  checker::CheckOptions o;
  o.max_states = max_states;
  return checker::check((*pair)->lockstep(), o);
}

// Two nests, each a producer on E0 and its consumer on E1.
const char* kTwoNests = R"(syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: P0
  E1: C0
}
loop B trip 1..3 {
  E0: P1 P2
  E1: C1
}
dep P0 -> C0
dep P2 -> C1
dep P1 -> C1 distance B=1
)";

}  // namespace

TEST_CASE("reuse: two nests share their semaphores and counters, and stay bisimilar") {
  const auto spec = test::load_text(kTwoNests);
  const auto a = reused_per_loop(spec);
  CHECK(a.exact());
  // s_B_E0 counts on s_A_E0, after A's signals: E1 waits for base + w.
  CHECK(a.impl.semaphores == std::vector<std::string>{"s_A_E0", "s_A_E1"});
  const auto text = formats::write_text(a.impl);
  CHECK(text.find("s_B_E0") == std::string::npos);
  CHECK(text.find("isgt(w, 0) * (w + r_A)") != std::string::npos);
  allocator::Options never;
  never.strategy = allocator::Strategy::PerLoop;
  never.reuse = allocator::Reuse::Never;
  const auto plain = allocator::allocate(spec.program, spec.index, never);
  REQUIRE(plain.ok());
  // E0's trip register of B takes the cell of A's counter; E1 keeps A's counter as B's base.
  const auto sum = [&](const model::Program& p) {
    const auto r = allocator::usage_of(p, spec.index).registers;
    return std::accumulate(r.begin(), r.end(), std::size_t{0});
  };
  CHECK(sum(a.impl) + 1 == sum(plain->impl));
  const auto r = check_reused(spec.program, a.impl);
  CHECK(r.exhaustive);
  CHECK(r.verdict == checker::Verdict::Bisimilar);
}

TEST_CASE("reuse: a semaphore reused one signal too early is caught") {
  const auto spec = test::load_text(kTwoNests);
  auto a = reused_per_loop(spec);
  // The mutant: the wait for the joined semaphore's base + w waits for one signal less.
  bool mutated = false;
  std::function<void(std::vector<model::Stmt>&)> walk = [&](std::vector<model::Stmt>& body) {
    for (auto& st : body) {
      if (auto* l = std::get_if<model::Loop>(&st.node)) walk(l->body);
      auto* b = std::get_if<model::Block>(&st.node);
      if (!b || mutated) continue;
      for (auto& s : b->streams)
        for (auto& item : s.items)
          if (auto* op = std::get_if<model::RegOp>(&item); op && !mutated && op->expr.to_string().find("r_A)") != std::string::npos) {
            op->expr = model::Expr::binary(model::ExprOp::Sub, op->expr, model::Expr::constant(1));
            mutated = true;
          }
    }
  };
  walk(a.impl.body);
  REQUIRE(mutated);
  const auto r = check_reused(spec.program, a.impl);
  CHECK(r.verdict == checker::Verdict::UnderSynchronized);
  // And without the base at all (the semaphore taken over as if it had been reset).
  auto b = reused_per_loop(spec);
  const auto text = formats::write_text(b.impl);
  const auto at = text.find("isgt(w, 0) * (w + r_A)");
  REQUIRE(at != std::string::npos);
  const auto no_base = test::load_text(text.substr(0, at) + "w" + text.substr(at + std::string("isgt(w, 0) * (w + r_A)").size()));
  CHECK(check_reused(spec.program, no_base.program).verdict == checker::Verdict::UnderSynchronized);
}

TEST_CASE("reuse: a semaphore signalled by two engines, or reset by a barrier, is never joined") {
  auto impl = test::load_text(R"(syncbisim impl/1
engines E0 E1
semaphores s t u
loop A trip 1..2 {
  E0: I0 {s += 1}
  E1: I1 {s += 1}
}
E0: I2 {t += 1}
E1: {t >= 1} I3
E0: barrier(u)
E1: barrier(u)
E0: I4 {u += 1}
E1: {u >= 1} I5
)");
  auto p = impl.program;
  const auto r = allocator::reuse_semaphores(p);
  CHECK(r.after == 3);
  CHECK(p.semaphores == std::vector<std::string>{"s", "t", "u"});
}

TEST_CASE("reuse: registers of separate nests share a cell, a counter gets its reset only where needed") {
  auto impl = test::load_text(R"(syncbisim impl/1
engines E0
semaphores s
loop A trip 1..2 {
  E0: [a := a + 1] [w := 2 * a] {s >= w} I0 {s += 1}
}
loop B trip 1..2 {
  E0: [b := b + 1] [w2 := 2 * b] {s >= w2} I1 {s += 1}
}
)");
  auto p = impl.program;
  const auto r = allocator::reuse_registers(p);
  CHECK(r.before == 4);
  CHECK(r.after == 2);
  CHECK(r.resets == 1);
  CHECK(formats::write_text(p) == R"(syncbisim impl/1
engines E0
semaphores s
loop A trip 1..2 {
  E0: [a := a + 1] [w := 2 * a] {s >= w} I0 {s += 1}
}
E0: [a := 0]
loop B trip 1..2 {
  E0: [a := a + 1] [w := 2 * a] {s >= w} I1 {s += 1}
}
)");
}

TEST_CASE("reuse: generated multi-nest kernels under tight budgets are exact when they fit, never unsafe") {
  test::rc_check(
      "multi-nest kernels, reuse, budgets",
      [] {
        const int nests = *rc::gen::inRange(2, 4);
        const int engines = *rc::gen::inRange(2, 4);
        std::string text = "syncbisim spec/1\nengines";
        for (int e = 0; e < engines; ++e) text += " E" + std::to_string(e);
        text += "\n";
        std::string deps;
        std::string last;
        for (int n = 0; n < nests; ++n) {
          const auto name = [n](int i) { return "I" + std::to_string(n) + "_" + std::to_string(i); };
          const int outer = *rc::gen::inRange(1, 3), inner = *rc::gen::inRange(0, 3);
          const auto engine = [&] { return "E" + std::to_string(*rc::gen::inRange(0, engines)); };
          const std::string L0 = "L" + std::to_string(n) + "_0", L1 = "L" + std::to_string(n) + "_1";
          text += "loop " + L0 + " trip 1.." + std::to_string(*rc::gen::inRange(1, 3)) + " {\n";
          for (int i = 0; i < outer; ++i) text += "  " + engine() + ": " + name(i) + "\n";
          if (inner > 0) {
            text += "  loop " + L1 + " trip 1.." + std::to_string(*rc::gen::inRange(1, 3)) + " {\n";
            for (int i = outer; i < outer + inner; ++i) text += "    " + engine() + ": " + name(i) + "\n";
            text += "  }\n";
          }
          text += "}\n";
          const int count = outer + inner;
          if (!last.empty()) deps += "dep " + last + " -> " + name(0) + "\n";
          last = name(count - 1);
          const int ndeps = *rc::gen::inRange(0, 3);
          for (int d = 0; d < ndeps && count > 1; ++d) {
            const int p = *rc::gen::inRange(0, count), c = *rc::gen::inRange(0, count);
            if (p == c) continue;
            const bool carried = p > c || *rc::gen::arbitrary<bool>();
            deps += "dep " + name(p) + " -> " + name(c) + (carried ? " distance " + L0 + "=1" : "") + "\n";
          }
        }
        auto loaded = formats::load_program_text(text + deps, "gen");
        RC_ASSERT(loaded.ok());
        allocator::Options o;
        o.strategy = *rc::gen::elementOf(std::vector<allocator::Strategy>{
            allocator::Strategy::PerLoop, allocator::Strategy::PerInstruction, allocator::Strategy::PerEngine,
            allocator::Strategy::Expert, allocator::Strategy::Mixed});
        o.reuse = *rc::gen::elementOf(std::vector<allocator::Reuse>{allocator::Reuse::Auto, allocator::Reuse::Always});
        o.max_semaphores = *rc::gen::inRange<std::size_t>(2, 10);
        o.max_registers = *rc::gen::inRange<std::size_t>(2, 12);
        const auto a = allocator::allocate(loaded->program, loaded->index, o);
        if (!a) {
          RC_ASSERT(a.error().rule == "over-budget");
          RC_TAG("refused");
          return;
        }
        const auto use = allocator::usage_of(a->impl, loaded->index);
        RC_ASSERT(use.semaphores <= o.max_semaphores);
        RC_ASSERT(use.registers_max() <= o.max_registers);
        auto pair = checker::ProgramPair::make(loaded->program, a->impl);
        RC_ASSERT(pair.ok());
        checker::CheckOptions c;
        c.max_states = 100000;
        const auto r = checker::check((*pair)->lockstep(), c);
        if (r.verdict == checker::Verdict::UnderSynchronized || r.verdict == checker::Verdict::Overflow)
          RC_FAIL(text + deps + "\n" + formats::write_text(a->impl));
        if (a->exact() && r.exhaustive && r.verdict != checker::Verdict::Bisimilar)
          RC_FAIL("claimed exact, but " + std::string(checker::to_string(r.verdict)) + "\n" + text + deps + "\n" +
                  formats::write_text(a->impl));
        bool reused = false;
        for (const auto& n : a->notes) reused = reused || n.rfind("reused by liveness", 0) == 0;
        RC_CLASSIFY(reused, "reused");
        RC_CLASSIFY(!a->exact(), "not exact");
      },
      150);
}
