// The abstract run bounding every register value in stream order (prover/register_peaks.h,
// docs/prover.md "Overflow"): exact figures on tiny inline impls, and a property against every
// run of generated one-engine programs, enumerated.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "prover/places.h"
#include "prover/prove_support.h"
#include "prover/register_peaks.h"
#include "support/programs.h"

using namespace syncbisim;

namespace {

// Peaks of engine 0 of an impl's text, with the largest trip of each loop given by name (a cond's
// branch runs at most once).
std::map<std::string, std::uint64_t> peaks_of(const std::string& impl, const std::map<std::string, std::uint64_t>& hi,
                                              prover::RegisterPeaksOptions o = {}) {
  const auto loaded = test::load_text(impl);
  const auto places = prover::Places::build(loaded.program, loaded.index);
  const auto& ix = places.index();
  return prover::register_peaks(
      places, 0,
      [&](model::LoopId l) {
        const auto it = hi.find(ix.loops[l].name);
        return it == hi.end() ? std::uint64_t{1} : it->second;
      },
      o);
}

}  // namespace

TEST_CASE("register peaks: a base register summed after each of two loops reusing one counter") {
  // The shape reuse gives (docs/allocator.md "Reusing registers and semaphores"): b reads itself,
  // so no bound over the whole program exists; in stream order it is 2 * 4 + 3 * 3.
  const auto p = peaks_of(
      "syncbisim impl/1\nengines E0\nsemaphores s\n"
      "loop A {\n  E0: [r := r + 1] P {s += 1}\n}\n"
      "E0: [b := b + 2 * r] [r := 0]\n"
      "loop B {\n  E0: [r := r + 1] Q {s += 1}\n}\n"
      "E0: [b := b + 3 * r]\n",
      {{"A", 4}, {"B", 3}});
  CHECK(p.at("r") == 4);
  CHECK(p.at("b") == 17);
}

TEST_CASE("register peaks: a loop past the iterations run one by one gives up what still changes") {
  prover::RegisterPeaksOptions o;
  o.iterations_per_loop = 8;
  const auto text =
      "syncbisim impl/1\nengines E0\nsemaphores s\n"
      "loop A {\n  E0: [c := c + 1] [k := 5] [d := isgt(c, 3)] [m := 2 * c] P {s += 1}\n}\n";
  const auto p = peaks_of(text, {{"A", 100}}, o);
  CHECK(p.at("c") == prover::kNoBound);
  CHECK(p.at("m") == prover::kNoBound);
  CHECK(p.at("k") == 5);  // the same every iteration: a fixed point
  CHECK(p.at("d") == 3);  // isgt is at most 1, but its constant 3 is a value computed too
  // Within the iterations run one by one, the counter is exact.
  const auto q = peaks_of(text, {{"A", 8}}, o);
  CHECK(q.at("c") == 8);
  CHECK(q.at("m") == 16);
}

TEST_CASE("register peaks: a cond joins its branches, and intermediate values count") {
  const auto p = peaks_of(
      "syncbisim impl/1\nengines E0\nsemaphores s\n"
      "E0: [x := 3]\n"
      "cond C {\n  E0: [x := 2 * x + 1] P {s += 1}\n} else {\n  E0: [y := x * 10 - 25] Q {s += 1}\n}\n",
      {});
  CHECK(p.at("x") == 7);
  CHECK(p.at("y") == 30);  // x * 10 is computed on the way (docs/semantics.md "Widths")
}

namespace {

// A generated one-engine program: nested loops (trips 0..hi, chosen at each entry) of writes over
// three registers, and every run of it enumerated to the largest value each register computes.
struct GenWrite {
  int dst, a, b, op, k;
};
struct GenStmt {
  bool loop = false;
  int hi = 0;
  std::vector<GenWrite> writes;
  std::vector<GenStmt> body;
};

const char* kRegs[] = {"x", "y", "z"};

std::string expr_text(const GenWrite& w) {
  const std::string a = kRegs[w.a], b = kRegs[w.b], k = std::to_string(w.k);
  switch (w.op) {
    case 0: return a + " + " + k;
    case 1: return a + " + " + b;
    case 2: return k + " * " + a;
    case 3: return a + " - " + b;
    case 4: return "isgt(" + a + ", " + k + ")";
    default: return k;
  }
}

void text_of(const std::vector<GenStmt>& body, int& loops, std::string& out, const std::string& indent,
             std::map<std::string, std::uint64_t>& hi) {
  for (const auto& s : body) {
    if (!s.loop) {
      out += indent + "E0:";
      for (const auto& w : s.writes) out += std::string(" [") + kRegs[w.dst] + " := " + expr_text(w) + "]";
      out += " I" + std::to_string(loops) + "_" + std::to_string(out.size()) + " {s += 1}\n";
      continue;
    }
    const auto name = "L" + std::to_string(loops++);
    hi[name] = static_cast<std::uint64_t>(s.hi);
    out += indent + "loop " + name + " {\n";
    text_of(s.body, loops, out, indent + "  ", hi);
    out += indent + "}\n";
  }
}

using State = std::array<std::uint64_t, 3>;

std::uint64_t eval(const GenWrite& w, const State& s, std::array<std::uint64_t, 3>& most) {
  const auto a = s[w.a], b = s[w.b], k = static_cast<std::uint64_t>(w.k);
  std::uint64_t v = 0;
  switch (w.op) {
    // Saturating, as the bound is: a wrapped value would make the reference too small.
    case 0: v = __builtin_add_overflow(a, k, &v) ? prover::kNoBound : v; break;
    case 1: v = __builtin_add_overflow(a, b, &v) ? prover::kNoBound : v; break;
    case 2: v = __builtin_mul_overflow(k, a, &v) ? prover::kNoBound : v; break;
    case 3: v = a >= b ? a - b : 0; break;
    case 4: v = a > k ? 1 : 0; break;
    default:
      v = k;
      most[w.dst] = std::max(most[w.dst], k);
      break;
  }
  most[w.dst] = std::max(most[w.dst], v);
  return v;
}

// Every state a run of `body` from one of `in` can end in (each loop entry choosing its trip
// 0..hi), recording the largest value each register computes on the way.
std::set<State> runs(const std::vector<GenStmt>& body, std::set<State> in, std::array<std::uint64_t, 3>& most) {
  for (const auto& s : body) {
    if (!s.loop) {
      std::set<State> out;
      for (auto st : in) {
        for (const auto& w : s.writes) st[w.dst] = eval(w, st, most);
        out.insert(st);
      }
      in = std::move(out);
      continue;
    }
    std::set<State> after = in, at = in;  // after: the states after 0..k iterations
    for (int k = 0; k < s.hi; ++k) {
      at = runs(s.body, at, most);
      after.insert(at.begin(), at.end());
    }
    in = std::move(after);
  }
  return in;
}

// Drawn inside the property (each * is one draw).
std::vector<GenStmt> gen_body(int depth) {
  std::vector<GenStmt> body(*rc::gen::inRange<std::size_t>(1, 4));
  for (auto& s : body) {
    if (depth > 0 && *rc::gen::inRange(0, 2) == 0) {
      s.loop = true;
      s.hi = *rc::gen::inRange(0, 6);
      s.body = gen_body(depth - 1);
      continue;
    }
    s.writes.resize(*rc::gen::inRange<std::size_t>(1, 3));
    // Half the writes read their own register (counters, accumulations: what widening is for).
    for (auto& w : s.writes) {
      w = GenWrite{*rc::gen::inRange(0, 3), *rc::gen::inRange(0, 3), *rc::gen::inRange(0, 3), *rc::gen::inRange(0, 6),
                   *rc::gen::inRange(0, 4)};
      if (*rc::gen::inRange(0, 2) == 0) w.a = w.dst;
    }
  }
  return body;
}

}  // namespace

TEST_CASE("register peaks: at least every value any run computes, on generated programs") {
  const auto ok = rc::check("peaks bound every run's values", [] {
    const auto body = gen_body(2);
    std::string text = "syncbisim impl/1\nengines E0\nsemaphores s\n";
    int loops = 0;
    std::map<std::string, std::uint64_t> hi;
    text_of(body, loops, text, "", hi);
    std::array<std::uint64_t, 3> most{0, 0, 0};
    runs(body, {State{0, 0, 0}}, most);
    prover::RegisterPeaksOptions o;
    o.iterations_per_loop = 2;  // loops of 3 and 4 trips are widened: both paths are exercised
    const auto p = peaks_of(text, hi, o);
    RC_TAG(std::any_of(p.begin(), p.end(), [](const auto& kv) { return kv.second == prover::kNoBound; })
               ? "a register given up"
               : "every register bounded");
    for (int r = 0; r < 3; ++r) {
      const auto it = p.find(kRegs[r]);
      if (it == p.end()) {
        RC_ASSERT(most[r] == 0u);  // never written
        continue;
      }
      RC_ASSERT(it->second >= most[r]);
    }
  });
  CHECK(ok);
}

namespace {

// C waits for b + n, where b is summed by `links` top-level assignments that each read the one
// before (a base register along a chain of reused semaphores; x is never written, so 0).
prover::ProveResult chain_of(int links) {
  const auto spec =
      test::load_inline("syncbisim spec/1\nengines E0 E1\nloop A trip 1..2 {\n  E0: P\n}\nE1: C\ndep P -> C\n");
  std::string impl =
      "syncbisim impl/1\nengines E0 E1\nsemaphores s\nloop A {\n  E0: P {s += 1}\n  E1: [n := n + 1]\n}\nE1:";
  for (int k = 0; k < links; ++k) impl += " [b := b + x]";
  impl += " [w := b + n] {s >= w} C\n";
  return test::prove_pair(spec, test::load_inline(impl).program);
}

}  // namespace

TEST_CASE("prover registers: a chain of 1,500 assignments is proved, past 2,048 the consumer is unknown, saying why") {
  // docs/prover.md "Registers": each (register, point) is built once, so the chain costs its
  // length; the depth limit keeps the recursion within the stack.
  const auto r = chain_of(1500);
  CHECK(r.verdict == prover::Answer::Proved);
  const auto deep = chain_of(3000);
  REQUIRE(deep.consumers.size() == 1);
  CHECK(deep.consumers[0].safe.answer == prover::Answer::Unknown);
  CHECK_MESSAGE(deep.consumers[0].safe.reason.find("assignments nested more than 2048 deep") != std::string::npos,
                deep.consumers[0].safe.reason);
}
