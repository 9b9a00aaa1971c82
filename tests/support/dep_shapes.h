#pragma once
// Specs built around dependencies of random shapes, for the allocator's closed forms (paper §5.2
// and beyond, docs/allocator.md): RapidCheck generators, so a failing case shrinks.
#include <rapidcheck.h>

#include <string>
#include <vector>

namespace syncbisim::test {

// A spec built around one dependency of a random shape: a chain of 1..3 common loops with
// random trip rules (constants, ranges from 0, sequences), the producer directly in S or 1..2
// loops or conds below it, the consumer directly in S or in a loop of its own, either first,
// optionally in the two branches of one cond, and a random distance on every common loop;
// sometimes a second producer Q next to P with a dependency of its own on C.
inline std::string gen_shape_text() {
  const auto pick = [](int lo, int hi) { return *rc::gen::inRange(lo, hi + 1); };
  const auto trip = [&](bool branch) -> std::string {
    if (branch) {
      const char* t[] = {"any", "then", "else", "[then, else]"};
      return t[pick(0, 3)];
    }
    switch (pick(0, 3)) {
      case 0: return std::to_string(pick(1, 4));
      case 1: {
        const int lo = pick(0, 2);
        return std::to_string(lo) + ".." + std::to_string(lo + pick(1, 3));
      }
      case 2: return "[" + std::to_string(pick(1, 4)) + ", " + std::to_string(pick(0, 4)) + "]";
      default: return std::to_string(pick(2, 4));
    }
  };
  const int common = pick(1, 3);
  std::string text = "syncbisim spec/1\nengines E0 E1\n", close;
  std::vector<std::string> loops;
  for (int i = 0; i < common; ++i) {
    loops.push_back("L" + std::to_string(i));
    text += "loop L" + std::to_string(i) + " trip " + trip(false) + " {\n";
    close += "}\n";
  }
  const std::string pe = pick(0, 3) == 0 ? "E1" : "E0";
  // The producer's subtree: 0..2 levels below S.
  // Sometimes a second producer Q beside P (per-loop's N = 2, a second wait on C).
  const bool with_q = pick(0, 1) == 1;
  std::string prod = pe + (with_q ? ": P Q\n" : ": P\n");
  for (int q = pick(0, 2); q > 0; --q) {
    const auto id = "N" + std::to_string(q);
    if (pick(0, 3) == 0) prod = "cond " + id + " taken " + trip(true) + " {\n" + prod + "}\n";
    else prod = "loop " + id + " trip " + trip(false) + " {\n" + prod + "}\n";
  }
  std::string cons = "E1: C\n";
  if (pick(0, 2) == 0) cons = "loop D trip " + trip(false) + " {\n" + cons + "}\n";
  if (pick(0, 4) == 0) text += "cond X taken " + trip(true) + " {\n" + prod + "} else {\n" + cons + "}\n";
  else text += pick(0, 1) ? prod + cons : cons + prod;
  const auto distance = [&] {
    std::string d;
    for (int i = 0; i < common; ++i)
      d +=
          (i ? ", " : "") + loops[i] + "=" + std::to_string(*rc::gen::elementOf(std::vector<int>{0, 0, 1, 1, 1, 2, 3}));
    return d;
  };
  text += close + "dep P -> C distance " + distance() + "\n";
  if (with_q) text += "dep Q -> C distance " + distance() + "\n";
  return text;
}

}  // namespace syncbisim::test
