// The Graphviz view: clusters per loop, quoted node ids, labelled dependency edges.
#include <doctest/doctest.h>

#include "formats/dot_format.h"
#include "formats/load.h"

using namespace syncbisim;

TEST_CASE("dot: spec with nested loops, a cond and a labelled dependency") {
  auto r = formats::load_program_text(R"(engines E0 E1
loop A trip 2 {
  loop B trip [3, 4] {
    E0: P
    E1: C
  }
}
cond K {
  E0: "X
}
dep P -> C distance B=2
)",
                                      "t.sb");
  // A quote is not an identifier character: the text reader rejects it.
  REQUIRE_FALSE(r.ok());
  r = formats::load_program_text(R"(engines E0 E1
loop A trip 2 {
  loop B trip [3, 4] {
    E0: P
    E1: C
  }
}
cond K {
  E0: X
}
dep P -> C distance B=2
)",
                                 "t.sb");
  REQUIRE(r.ok());
  const auto dot = formats::write_dot(r->program, r->index);
  CHECK(dot.rfind("digraph program {", 0) == 0);
  CHECK(dot.find("subgraph \"cluster_A\" {") != std::string::npos);
  CHECK(dot.find("    subgraph \"cluster_B\" {") != std::string::npos);  // nested inside A
  CHECK(dot.find("subgraph \"cluster_K.then\"") != std::string::npos);
  CHECK(dot.find("\"instr_P\" -> \"instr_C\" [style=dashed, label=\"B=2\"]") != std::string::npos);
  CHECK(dot.find("label=\"P @ E0\"") != std::string::npos);
  CHECK(dot.back() == '\n');
}

TEST_CASE("dot: impl labels show waits and signals") {
  auto r = formats::load_program_text(R"(syncbisim impl/1
engines E0 E1
semaphores s0
E0: I0 {s0 += 1}
E1: [w := 1] {s0 >= w} I1 barrier(s0)
)",
                                      "t.sb");
  REQUIRE(r.ok());
  const auto dot = formats::write_dot(r->program, r->index);
  CHECK(dot.find("label=\"I0 @ E0\\n{s0 += 1}\"") != std::string::npos);
  CHECK(dot.find("label=\"{s0 >= w}\\nI1 @ E1\"") != std::string::npos);
  CHECK(dot.find("[w := 1] @ E1") != std::string::npos);
  CHECK(dot.find("barrier(s0) @ E1") != std::string::npos);
}
