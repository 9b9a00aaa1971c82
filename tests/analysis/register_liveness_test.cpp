// Register liveness of an impl (analysis/register_liveness.h) on tiny programs.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "analysis/register_liveness.h"
#include "formats/load.h"
#include "generators/impl_gen.h"
#include "support/rapidcheck_doctest.h"
#include "support/programs.h"

using namespace syncbisim;

namespace {

std::uint32_t id(const analysis::EngineRegisterLiveness& l, const std::string& name) {
  const auto it = std::find(l.registers.begin(), l.registers.end(), name);
  REQUIRE(it != l.registers.end());
  return static_cast<std::uint32_t>(it - l.registers.begin());
}

bool interfere(const analysis::EngineRegisterLiveness& l, const std::string& a, const std::string& b) {
  const auto& adj = l.interference[id(l, a)];
  return std::binary_search(adj.begin(), adj.end(), id(l, b));
}

}  // namespace

TEST_CASE("register liveness: a counter lives across its loop, a temporary only to its read") {
  const auto p = test::load_text(R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A trip 1..3 {
  E0: [r := r + 1] [w := 2 * r] {s >= w} I0 {s += 1}
  E1: I1
}
E0: [x := 5] {s >= x} I2 [y := 1] {s >= y} I3
)");
  analysis::LivenessOptions o;
  o.zero_before_first_use = false;
  const auto l = analysis::register_liveness(p.program, o);
  REQUIRE(l.size() == 2);
  const auto& e0 = l[0];
  CHECK(e0.registers == std::vector<std::string>{"r", "w", "x", "y"});
  CHECK(interfere(e0, "w", "r"));  // r is read again in the next iteration
  CHECK(interfere(e0, "x", "r") == false);
  CHECK(interfere(e0, "x", "y") == false);
  CHECK(interfere(e0, "x", "w") == false);
  CHECK(e0.live_at_entry[id(e0, "r")]);  // r + 1 reads its initial 0
  CHECK_FALSE(e0.live_at_entry[id(e0, "w")]);
  CHECK(e0.peak_live == 2);
  CHECK(l[1].registers.empty());
  CHECK(l[1].peak_live == 0);
}

TEST_CASE("register liveness: a zero before the first use ends a counter's life at its nest") {
  const auto p = test::load_text(R"(syncbisim impl/1
engines E0
semaphores s
loop A trip 1..2 {
  E0: [a := a + 1] {s >= a} I0 {s += 1}
}
loop B trip 1..2 {
  E0: [b := b + 1] {s >= b} I1 {s += 1}
}
E0: {s >= z} I2
)");
  analysis::LivenessOptions plain;
  plain.zero_before_first_use = false;
  const auto without = analysis::register_liveness(p.program, plain)[0];
  CHECK(interfere(without, "a", "b"));  // both hold their initial 0 from the start
  CHECK(without.zeroed.empty());
  const auto with = analysis::register_liveness(p.program)[0];
  CHECK_FALSE(interfere(with, "a", "b"));
  // z is never written: it keeps its 0 from the start, alive beside both counters
  CHECK(interfere(with, "z", "a"));
  CHECK(interfere(with, "z", "b"));
  REQUIRE(with.zeroed.size() == 2);
  CHECK(with.zeroed[0] == std::pair<std::uint32_t, std::size_t>{id(with, "a"), 0});
  CHECK(with.zeroed[1] == std::pair<std::uint32_t, std::size_t>{id(with, "b"), 1});
  CHECK(with.peak_live == 2);
  CHECK(without.peak_live == 3);
}

TEST_CASE("register liveness: either branch of a cond may run") {
  const auto p = test::load_text(R"(syncbisim impl/1
engines E0
semaphores s
E0: [u := 1] [v := 2]
cond C taken any {
  E0: {s >= u} I0
} else {
  E0: {s >= v} I1
}
)");
  const auto l = analysis::register_liveness(p.program)[0];
  CHECK(interfere(l, "u", "v"));
}

namespace {

// The textbook data flow on names, as a reference: a loop's guard iterated to its fixed point,
// then its body walked once more recording (register_liveness instead summarizes each part once).
struct ReferenceLiveness {
  using Set = std::set<std::string>;
  std::string engine;
  bool recording = true;
  std::set<std::pair<std::string, std::string>> interference;
  std::size_t peak = 0;

  Set body(const std::vector<model::Stmt>& stmts, Set live) {
    for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) live = stmt(*it, live);
    return live;
  }
  Set stmt(const model::Stmt& st, Set live) {
    if (const auto* b = std::get_if<model::Block>(&st.node)) {
      if (const auto* s = b->find(engine))
        for (auto it = s->items.rbegin(); it != s->items.rend(); ++it) {
          if (const auto* op = std::get_if<model::RegOp>(&*it)) {
            if (recording)
              for (const auto& r : live)
                if (r != op->dst) interference.insert(std::minmax(r, op->dst));
            live.erase(op->dst);
            for (const auto& n : op->expr.nodes)
              if (n.op == model::ExprOp::Reg) live.insert(n.reg);
          } else if (const auto* in = std::get_if<model::Instr>(&*it)) {
            for (const auto& w : in->waits)
              if (const auto* r = std::get_if<std::string>(&w.ge)) live.insert(*r);
          } else {
            continue;
          }
          peak = std::max(peak, live.size());
        }
      return live;
    }
    if (const auto* l = std::get_if<model::Loop>(&st.node)) {
      const bool was = recording;
      recording = false;
      Set guard = live;
      for (;;) {
        Set next = live;
        const auto in = body(l->body, guard);
        next.insert(in.begin(), in.end());
        if (next == guard) break;
        guard = next;
      }
      recording = was;
      body(l->body, guard);
      return guard;
    }
    const auto& c = std::get<model::Cond>(st.node);
    Set out = body(c.then_body, live);
    const auto other = body(c.else_body, live);
    out.insert(other.begin(), other.end());
    return out;
  }
};

}  // namespace

TEST_CASE("register liveness: the summaries agree with iterating each loop to its fixed point (property)") {
  test::rc_check("register_liveness == the fixed-point reference", [] {
    generators::ImplGenOptions opt;
    opt.max_depth = 4;
    opt.max_items = 5;
    const auto impl = *generators::gen_impl_shape(opt);
    analysis::LivenessOptions lo;
    lo.zero_before_first_use = false;  // the reference has no resets
    const auto got = analysis::register_liveness(impl, lo);
    RC_ASSERT(got.size() == impl.engines.size());
    for (const auto& l : got) {
      ReferenceLiveness ref{l.engine};
      const auto entry = ref.body(impl.body, {});
      RC_ASSERT(l.peak_live == ref.peak);
      std::set<std::string> at_entry;
      for (std::size_t r = 0; r < l.registers.size(); ++r)
        if (l.live_at_entry[r]) at_entry.insert(l.registers[r]);
      RC_ASSERT(at_entry == entry);
      // Registers live at the start interfere with each other (their initial zeros).
      for (const auto& a : entry)
        for (const auto& b : entry)
          if (a < b) ref.interference.emplace(a, b);
      std::set<std::pair<std::string, std::string>> pairs;
      for (std::size_t r = 0; r < l.registers.size(); ++r)
        for (const auto o : l.interference[r]) pairs.insert(std::minmax(l.registers[r], l.registers[o]));
      RC_ASSERT(pairs == ref.interference);
    }
  });
}
