// The text format (docs/formats.md): the paper-style examples, every construct, printing,
// errors with line:col and a rule.
#include <doctest/doctest.h>

#include "formats/json_format.h"
#include "formats/text_format.h"

using namespace syncbisim;
using namespace syncbisim::model;

namespace {

Program read_text_ok(const std::string& text) {
  auto r = formats::read_text(text);
  INFO(text, "\n-> ", (r ? std::string("ok") : r.error().to_string()));
  REQUIRE(r.ok());
  return *r;
}

Diagnostic read_text_bad(const std::string& text) {
  auto r = formats::read_text(text);
  INFO(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

void check_round_trip(const Program& p) {
  const auto text = formats::write_text(p);
  INFO(text);
  CHECK(read_text_ok(text) == p);
  CHECK(formats::write_text(read_text_ok(text)) == text);
}

}  // namespace

TEST_CASE("text: the Figure 1 spec reads like the JSON example") {
  const auto p = read_text_ok(R"(syncbisim spec/1            # the paper's Figure 1
engines E0 E1 E2
E0: I0
E1: I1
loop A trip 3 {
  E2: I2
  E1: I3
}
E2: I4
E0: I5
dep I3 -> I2 distance A=2
)");
  const auto j = formats::read_json(R"({"syncbisim": "spec/1", "engines": ["E0", "E1", "E2"], "program": [
    {"block": {"E0": ["I0"], "E1": ["I1"]}},
    {"loop": "A", "trip": 3, "body": [{"block": {"E2": ["I2"], "E1": ["I3"]}}]},
    {"block": {"E2": ["I4"], "E0": ["I5"]}}],
    "deps": [{"producer": "I3", "consumer": "I2", "distance": {"A": 2}}]})");
  REQUIRE(j.ok());
  CHECK(p == *j);
  CHECK(std::get<Loop>(p.body[1].node).loc.where == "5:1");
  CHECK(std::get<Instr>(std::get<Block>(std::get<Loop>(p.body[1].node).body[0].node).streams[1].items[0]).loc.where ==
        "7:7");
  CHECK(p.deps[0].loc.where == "11:1");
}

TEST_CASE("text: the formats.md impl example, without a header, is an impl") {
  const auto p = read_text_ok(R"(engines E0 E1
E0: [rhA := 0]
E1: [rhA := 0]
loop A {
  E0: [rA := rA + 1] [rhA := rhA + 1] I0 {s0 += 1} I1 {s0 += 1}
  E1: [rA := rA + 1] [rhA := rhA + 1] [w := isgt(rhA, 0) * (2 * rA)] {s0 >= w} I2 {s1 += 1}
}
)");
  CHECK(p.kind == ProgramKind::Impl);
  const auto& e1 = std::get<Block>(std::get<Loop>(p.body[1].node).body[0].node).streams[1];
  const auto& i2 = std::get<Instr>(e1.items[3]);
  CHECK(i2.waits == std::vector<Wait>{Wait{"s0", std::string("w")}});
  CHECK(i2.signal == Signal{"s1", 1});
  CHECK(std::get<RegOp>(e1.items[2]).expr.to_string() == "isgt(rhA, 0) * (2 * rA)");
  // The paper's shorthand [rA++] and {s0++} mean the same.
  const auto q = read_text_ok(R"(engines E0 E1
E0: [rhA := 0]
E1: [rhA := 0]
loop A {
  E0: [rA++] [rhA++] I0 {s0++} I1 {s0++}
  E1: [rA++] [rhA++] [w := isgt(rhA,0)*(2*rA)] {s0 >= w} I2 {s1++}
}
)");
  CHECK(q == p);
}

TEST_CASE("text: every construct, printed and read back") {
  const auto p = read_text_ok(R"(syncbisim spec/1
engines E0 E1
loop A trip 2..5 {
  loop B trip [3, 4] {
    E0: P@{"op":"dma_load","latency":120}
    E1: C
  }
  loop D trip per_engine(E0: 3, E1: 2..4; default 1) {
  }
  loop F trip per_engine(E1: [1, 2]) {
    E0: X
  }
}
cond K taken [then, else, else] {
  E0: Y
} else {
  E1: Z
}
cond K2 taken per_engine(E0: then; default any) {
}
cond K3 {
  E1: W
}
cond K4 taken 0..0 {
}
dep P -> C distance B=2
dep Y -> Z distance A=0, K.then=1
)");
  const auto& a = std::get<Loop>(p.body[0].node);
  CHECK(a.trip == TripRule{RangeTrip{2, 5}, {}, false});
  const auto& b = std::get<Loop>(a.body[0].node);
  CHECK(b.trip == TripRule{SeqTrip{{3, 4}}, {}, false});
  CHECK(std::get<Instr>(std::get<Block>(b.body[0].node).streams[0].items[0]).extra ==
        std::map<std::string, std::string>{{"latency", "120"}, {"op", "\"dma_load\""}});
  CHECK(std::get<Loop>(a.body[1].node).trip ==
        TripRule{ConstTrip{1}, {{"E0", ConstTrip{3}}, {"E1", RangeTrip{2, 4}}}, true});
  CHECK(std::get<Loop>(a.body[1].node).body.empty());
  CHECK(std::get<Loop>(a.body[2].node).trip == TripRule{ConstTrip{1}, {{"E1", SeqTrip{{1, 2}}}}, true});
  CHECK(std::get<Cond>(p.body[1].node).taken == TripRule{SeqTrip{{0, 1, 1}}, {}, false});
  CHECK(std::get<Cond>(p.body[2].node).taken == TripRule{RangeTrip{0, 1}, {{"E0", ConstTrip{0}}}, true});
  CHECK(std::get<Cond>(p.body[3].node).taken == TripRule{RangeTrip{0, 1}, {}, false});
  CHECK(std::get<Cond>(p.body[3].node).else_body.empty());
  CHECK(std::get<Cond>(p.body[4].node).taken == TripRule{RangeTrip{0, 0}, {}, false});
  CHECK(p.deps[1].distance == std::map<std::string, std::uint32_t>{{"A", 0}, {"K.then", 1}});
  check_round_trip(p);
  // And through JSON.
  auto j = formats::read_json(formats::write_json(p));
  REQUIRE(j.ok());
  CHECK(*j == p);
}

TEST_CASE("text: impl items print and read back") {
  const auto p = read_text_ok(R"(syncbisim impl/1
engines E0 E1
semaphores s0 s1
E0: [r := 0] {s0 >= r, s1 >= 3} {s0 >= 7} I0 {s1 += 4} barrier barrier() barrier(s0, s1) I1 I2 {s0 += 1}
loop A {
}
cond C {
  E1: I3
}
loop B trip 2 {
  E1: I4
}
)");
  const auto& items = std::get<Block>(p.body[0].node).streams[0].items;
  REQUIRE(items.size() == 7);
  CHECK(std::get<Instr>(items[1]).waits ==
        std::vector<Wait>{Wait{"s0", std::string("r")}, Wait{"s1", std::uint64_t{3}}, Wait{"s0", std::uint64_t{7}}});
  CHECK(std::get<Instr>(items[1]).signal == Signal{"s1", 4});
  CHECK_FALSE(std::get<Barrier>(items[2]).reset.has_value());
  CHECK(std::get<Barrier>(items[3]).reset == std::vector<std::string>{});
  CHECK(std::get<Barrier>(items[4]).reset == std::vector<std::string>{"s0", "s1"});
  CHECK_FALSE(std::get<Instr>(items[5]).signal.has_value());
  CHECK_FALSE(std::get<Loop>(p.body[1].node).trip.has_value());
  CHECK_FALSE(std::get<Cond>(p.body[2].node).taken.has_value());  // an impl leaves it to the spec
  check_round_trip(p);
}

TEST_CASE("text: consecutive lines of one engine in a block concatenate, in program order") {
  const auto p = read_text_ok("engines E0 E1\nE0: I0\nE1: I1\nE0: I2\n\n# comment\nE0: I3\n");
  REQUIRE(p.body.size() == 1);
  const auto& b = std::get<Block>(p.body[0].node);
  REQUIRE(b.streams.size() == 2);
  CHECK(b.streams[0].items.size() == 3);
  // The order written across engines is kept (docs/footprints.md "Program order").
  CHECK(formats::write_text(p) == "syncbisim spec/1\nengines E0 E1\nE0: I0\nE1: I1\nE0: I2 I3\n");
}

TEST_CASE("text: the printer indents two spaces per level") {
  const auto p = read_text_ok("engines E0\nloop A trip 1 {\nloop B trip 2 {\nE0: I0\n}\n}\n");
  CHECK(formats::write_text(p) ==
        "syncbisim spec/1\nengines E0\nloop A trip 1 {\n  loop B trip 2 {\n    E0: I0\n  }\n}\n");
}

TEST_CASE("text: errors name line:col and the rule") {
  struct Case {
    std::string text, place, rule;
  };
  const std::vector<Case> cases = {
      {"engines E0\nwhile A {\n}\n", "2:1", "syntax"},
      {"engines E0\nloop A trip 2 {\n  E0: I0\n", "2:1", "syntax"},
      {"engines E0\nE0: I0\n}\n", "3:1", "syntax"},
      {"syncbisim impl/1\nengines E0\nE0: I0 {s0 >= 1}\n", "3:8", "syntax"},
      {"syncbisim impl/1\nengines E0\nE0: {s0 += 1} I0\n", "3:6", "syntax"},
      {"syncbisim spec/3\n", "1:1", "bad-version"},
      {"engines E0\nloop A trip 5000000000 {\n}\n", "2:13", "bad-number"},
      {"engines E0\nloop A trip -1 {\n}\n", "2:13", "bad-number"},
      {"syncbisim impl/1\nengines E0\nE0: [r := 1 +]\n", "3:11", "bad-expr"},
      {"engines E0\nE0: I0@{\"a\": }\n", "2:8", "bad-json"},
      {"engines E0\nE0: I0@{\"id\": 1}\n", "2:8", "duplicate-key"},
      {"engines E0\ncond C taken maybe {\n}\n", "2:14", "bad-taken"},
      {"engines E0\nloop A trip 2 {\n  dep I0 -> I1\n}\n", "3:3", "syntax"},
      {"engines E0\nloop A trip 2 {\n} els {\n}\n", "3:3", "syntax"},
  };
  for (const auto& c : cases) {
    const auto d = read_text_bad(c.text);
    INFO(c.text, "\n-> ", d.to_string());
    CHECK(d.place == c.place);
    CHECK(d.rule == c.rule);
  }
}

TEST_CASE("text: a 20,000-deep loop nest gives a clean too-deep error") {
  std::string text = "engines E0\n";
  for (int i = 0; i < 20000; ++i) text += "loop L" + std::to_string(i) + " trip 1 {\n";
  for (int i = 0; i < 20000; ++i) text += "}\n";
  const auto d = read_text_bad(text);
  CHECK(d.rule == "too-deep");
  CHECK(d.place == "202:1");  // the 201st loop
  // 199 levels are fine.
  std::string ok = "engines E0\n";
  for (int i = 0; i < 199; ++i) ok += "cond C" + std::to_string(i) + " {\n";
  ok += "E0: I0\n";
  for (int i = 0; i < 199; ++i) ok += "}\n";
  check_round_trip(read_text_ok(ok));
}
