// Invented names (allocator/names.h): unique, and the smallest free suffix whatever was reserved.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "allocator/names.h"

using syncbisim::allocator::NameTable;
using syncbisim::allocator::sanitize;

TEST_CASE("names: a base, then the smallest suffix no one uses") {
  NameTable t;
  t.reserve("t_A_3");
  CHECK(t.fresh("t_", "A") == "t_A");
  CHECK(t.fresh("t_", "A") == "t_A_2");
  CHECK(t.fresh("t_", "A") == "t_A_4");  // _3 was reserved
  t.reserve("t_A_5");
  t.reserve("t_A_6");
  CHECK(t.fresh("t_", "A") == "t_A_7");
  CHECK(t.fresh("t_", "A.b") == "t_A_b");
  CHECK(t.fresh("t_", "A_b") == "t_A_b_2");  // sanitized names collide, suffixes part them
  CHECK(t.fresh("r_", "@top") == "r_top");
}

TEST_CASE("names: a reserved base starts at _2, and another base's suffixed name is skipped") {
  NameTable t;
  t.reserve("s_E0");
  CHECK(t.fresh("s_", "E0") == "s_E0_2");
  CHECK(t.fresh("s_", "E0_2") == "s_E0_2_2");  // s_E0_2 is taken by the first
  CHECK(t.fresh("s_", "E0") == "s_E0_3");
}

TEST_CASE("names: thousands of one base are all distinct and dense") {
  NameTable t;
  std::set<std::string> seen;
  for (int i = 0; i < 5000; ++i) seen.insert(t.fresh("t_", "A"));
  CHECK(seen.size() == 5000);
  CHECK(seen.count("t_A_5000"));
  CHECK(!seen.count("t_A_5001"));
  CHECK(sanitize("C.then") == "C_then");
}
