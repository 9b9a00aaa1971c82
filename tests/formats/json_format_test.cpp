// The JSON format of docs/formats.md: its examples, every field, and errors with place and rule.
#include <doctest/doctest.h>

#include "formats/json_format.h"
#include "formats/load.h"

using namespace syncbisim;
using namespace syncbisim::model;

namespace {

const char* kSpecExample = R"({
  "syncbisim": "spec/1",
  "engines": ["E0", "E1", "E2"],
  "program": [
    {"block": {"E0": ["I0"], "E1": ["I1"]}},
    {"loop": "A", "trip": 3, "body": [
      {"block": {"E2": ["I2"], "E1": ["I3"]}}
    ]},
    {"block": {"E2": ["I4"], "E0": ["I5"]}}
  ],
  "deps": [
    {"producer": "I3", "consumer": "I2", "distance": {"A": 2}}
  ]
})";

const char* kImplExample = R"J({
  "syncbisim": "impl/1",
  "engines": ["E0", "E1"],
  "semaphores": ["s0", "s1"],
  "program": [
    {"block": {"E0": [{"set": "rhA", "expr": 0}], "E1": [{"set": "rhA", "expr": 0}]}},
    {"loop": "A", "body": [
      {"block": {
        "E0": [{"set": "rA", "expr": "rA + 1"}, {"set": "rhA", "expr": "rhA + 1"},
               {"instr": "I0", "signal": "s0"},
               {"instr": "I1", "signal": "s0"}],
        "E1": [{"set": "rA", "expr": "rA + 1"}, {"set": "rhA", "expr": "rhA + 1"},
               {"set": "w", "expr": "isgt(rhA, 0) * (2 * rA)"},
               {"instr": "I2", "wait": [{"sem": "s0", "ge": "w"}], "signal": "s1"}]
      }}
    ]}
  ]
})J";

Program read_json_ok(const std::string& text) {
  auto r = formats::read_json(text);
  INFO((r ? std::string("ok") : r.error().to_string()));
  REQUIRE(r.ok());
  return *r;
}

Diagnostic read_json_bad(const std::string& text) {
  auto r = formats::read_json(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

const std::string kHead = R"({"syncbisim": "spec/1", "engines": ["E0", "E1"], )";

}  // namespace

TEST_CASE("json: the spec example of formats.md") {
  const auto p = read_json_ok(kSpecExample);
  CHECK(p.kind == ProgramKind::Spec);
  CHECK(p.engines == std::vector<std::string>{"E0", "E1", "E2"});
  REQUIRE(p.body.size() == 3);
  const auto& first = std::get<Block>(p.body[0].node);
  REQUIRE(first.streams.size() == 2);
  CHECK(first.streams[0].engine == "E0");
  CHECK(std::get<Instr>(first.streams[0].items[0]).id == "I0");
  CHECK(first.loc.where == "/program/0");
  CHECK(std::get<Instr>(first.streams[1].items[0]).loc.where == "/program/0/block/E1/0");
  const auto& loop = std::get<Loop>(p.body[1].node);
  CHECK(loop.id == "A");
  CHECK(loop.trip == TripRule{ConstTrip{3}, {}, false});
  CHECK(loop.loc.where == "/program/1");
  REQUIRE(p.deps.size() == 1);
  CHECK(p.deps[0].producer == "I3");
  CHECK(p.deps[0].consumer == "I2");
  CHECK(p.deps[0].distance == std::map<std::string, std::uint32_t>{{"A", 2}});
  CHECK(p.deps[0].loc.where == "/deps/0");
}

TEST_CASE("json: the impl example of formats.md") {
  const auto p = read_json_ok(kImplExample);
  CHECK(p.kind == ProgramKind::Impl);
  CHECK(p.semaphores == std::vector<std::string>{"s0", "s1"});
  const auto& loop = std::get<Loop>(p.body[1].node);
  CHECK_FALSE(loop.trip.has_value());
  const auto& e1 = std::get<Block>(loop.body[0].node).streams[1];
  CHECK(e1.engine == "E1");
  REQUIRE(e1.items.size() == 4);
  CHECK(std::get<RegOp>(e1.items[2]).expr.to_string() == "isgt(rhA, 0) * (2 * rA)");
  const auto& i2 = std::get<Instr>(e1.items[3]);
  REQUIRE(i2.waits.size() == 1);
  CHECK(i2.waits[0] == Wait{"s0", std::string("w")});
  CHECK(i2.signal == Signal{"s1", 1});
  CHECK(std::get<RegOp>(std::get<Block>(p.body[0].node).streams[0].items[0]).expr == Expr::constant(0));
}

TEST_CASE("json: a program whose indented form passes the limit is written compact, and reads back the same") {
  const auto p = read_json_ok(kImplExample);
  const auto indented = syncbisim::formats::write_json(p);
  CHECK(indented.find("\n  ") != std::string::npos);
  const auto compact = syncbisim::formats::write_json(p, indented.size() - 1);
  CHECK(compact.size() < indented.size());
  CHECK(compact.find('\n') == compact.size() - 1);  // one line
  CHECK(read_json_ok(compact) == p);
  CHECK(syncbisim::formats::write_json(p, indented.size()) == indented);  // at the limit: indented
}

TEST_CASE("json: trip forms, cond forms, extras, signals with add") {
  const auto p = read_json_ok(kHead + R"("program": [
    {"loop": "A", "trip": {"min": 1, "max": 3}, "body": [
      {"loop": "B", "trip": {"seq": [3, 4]}, "body": []},
      {"loop": "D", "trip": {"per_engine": {"E0": 2, "E1": {"min": 0, "max": 1}}, "default": 5}, "body": []},
      {"loop": "F", "trip": {"per_engine": {"E1": 2}}, "body": []}
    ]},
    {"cond": "C1", "then": [{"block": {"E0": [{"id": "I0", "op": "dma_load", "latency": 120, "tags": {"b": [1, 2]}}]}}]},
    {"cond": "C2", "taken": "then", "then": [], "else": []},
    {"cond": "C3", "taken": "else"},
    {"cond": "C4", "taken": {"seq": ["then", "else", 1]}},
    {"cond": "C5", "taken": {"per_engine": {"E0": "then"}, "default": "any"}}
  ]})");
  const auto& a = std::get<Loop>(p.body[0].node);
  CHECK(a.trip == TripRule{RangeTrip{1, 3}, {}, false});
  CHECK(std::get<Loop>(a.body[0].node).trip == TripRule{SeqTrip{{3, 4}}, {}, false});
  CHECK(std::get<Loop>(a.body[1].node).trip ==
        TripRule{ConstTrip{5}, {{"E0", ConstTrip{2}}, {"E1", RangeTrip{0, 1}}}, true});
  CHECK(std::get<Loop>(a.body[2].node).trip == TripRule{ConstTrip{1}, {{"E1", ConstTrip{2}}}, true});
  const auto& c1 = std::get<Cond>(p.body[1].node);
  CHECK(c1.taken == TripRule{RangeTrip{0, 1}, {}, false});  // "any" is the default in a spec
  const auto& i0 = std::get<Instr>(std::get<Block>(c1.then_body[0].node).streams[0].items[0]);
  CHECK(i0.extra ==
        std::map<std::string, std::string>{{"latency", "120"}, {"op", "\"dma_load\""}, {"tags", R"({"b":[1,2]})"}});
  CHECK(std::get<Cond>(p.body[2].node).taken == TripRule{ConstTrip{0}, {}, false});
  CHECK(std::get<Cond>(p.body[3].node).taken == TripRule{ConstTrip{1}, {}, false});
  CHECK(std::get<Cond>(p.body[4].node).taken == TripRule{SeqTrip{{0, 1, 1}}, {}, false});
  CHECK(std::get<Cond>(p.body[5].node).taken == TripRule{RangeTrip{0, 1}, {{"E0", ConstTrip{0}}}, true});
  // write_json keeps everything.
  CHECK(read_json_ok(formats::write_json(p)) == p);
}

TEST_CASE("json: an impl cond without taken leaves it to the spec") {
  const auto p = read_json_ok(R"({"syncbisim": "impl/1", "engines": ["E0"], "semaphores": ["s"], "program": [
    {"cond": "C", "then": [{"block": {"E0": [{"instr": "I0", "wait": [{"sem": "s", "ge": 3}],
                                             "signal": {"sem": "s", "add": 2}}, {"barrier": {}},
                                             {"barrier": {"reset": []}}, {"barrier": {"reset": ["s"]}}]}}]}]})");
  const auto& c = std::get<Cond>(p.body[0].node);
  CHECK_FALSE(c.taken.has_value());
  const auto& items = std::get<Block>(c.then_body[0].node).streams[0].items;
  CHECK(std::get<Instr>(items[0]).waits[0] == Wait{"s", std::uint64_t{3}});
  CHECK(std::get<Instr>(items[0]).signal == Signal{"s", 2});
  CHECK_FALSE(std::get<Barrier>(items[1]).reset.has_value());
  CHECK(std::get<Barrier>(items[2]).reset == std::vector<std::string>{});
  CHECK(std::get<Barrier>(items[3]).reset == std::vector<std::string>{"s"});
  CHECK(read_json_ok(formats::write_json(p)) == p);
}

TEST_CASE("json: consecutive blocks are normalized into one") {
  const auto p = read_json_ok(kHead + R"("program": [{"block": {"E0": ["I0"]}}, {"block": {"E1": ["I1"], "E0": ["I2"]}},
                                                {"block": {"E0": []}}]})");
  REQUIRE(p.body.size() == 1);
  const auto& b = std::get<Block>(p.body[0].node);
  REQUIRE(b.streams.size() == 2);
  CHECK(b.streams[0].items.size() == 2);
}

TEST_CASE("json: write_json is canonical pretty JSON in the simplest forms") {
  const auto p = read_json_ok(kImplExample);
  const auto out = formats::write_json(p);
  CHECK(out.find("\n  \"engines\": [\n    \"E0\",") != std::string::npos);  // 2-space indent
  CHECK(out.find("\"signal\": \"s0\"") != std::string::npos);               // add 1: the bare form
  CHECK(out.find("\"expr\": 0") != std::string::npos);                      // constants as integers
  CHECK(out.find("\"trip\"") == std::string::npos);                         // absent impl trip stays absent
  CHECK(out.find("\"deps\"") == std::string::npos);
  CHECK(formats::write_json(read_json_ok(out)) == out);
  const auto spec = formats::write_json(read_json_ok(kSpecExample));
  CHECK(spec.find("\"distance\": {\n        \"A\": 2") != std::string::npos);
}

TEST_CASE("json: errors name the place and the rule") {
  struct Case {
    std::string text, place, rule;
  };
  const std::vector<Case> cases = {
      {R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [], "extra": 1})", "/extra", "unknown-field"},
      {kHead + R"("program": [{"loop": "A", "trip": 2, "body": [{"block": {"E0": [{"instr": "I0", "bogus": 1}]}}]}]})",
       "/program/0/body/0/block/E0/0/bogus", "unknown-field"},
      {kHead + R"("program": [{"loop": "A", "trip": -3, "body": []}]})", "/program/0/trip", "bad-number"},
      {kHead + R"("program": [{"loop": "A", "trip": {"min": 1}, "body": []}]})", "/program/0/trip", "missing-field"},
      {kHead + R"("program": [{"cond": "C", "taken": "sometimes"}]})", "/program/0/taken", "bad-taken"},
      {R"({"syncbisim": "impl/1", "engines": ["E0"], "program": [{"block": {"E0": [{"set": "r", "expr": "r + + 1"}]}}]})",
       "/program/0/block/E0/0/expr", "bad-expr"},
      {R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [], "program": []})", "/program", "duplicate-key"},
      {R"({"engines": ["E0"], "program": []})", "/", "bad-version"},
      {R"({"syncbisim": "impl/2", "engines": ["E0"], "program": []})", "/syncbisim", "bad-version"},
      {"{\"syncbisim\": \"spec/1\",\n  \"engines\": [\"E0\" \"E1\"]}", "2:23",
       "bad-json"},  // nlohmann reports the last character of the offending token
      {kHead + R"("program": [{"block": {"E0": [{"set": "r", "expr": true}]}}]})", "/program/0/block/E0/0/expr",
       "bad-type"},
      {kHead +
           R"("program": [{"block": {"E0": ["I0"]}}], "deps": [{"producer": "I0", "consumer": "I0", "distance": {"A": 4294967296}}]})",
       "/deps/0/distance/A", "bad-number"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto d = read_json_bad(c.text);
    CHECK(d.place == c.place);
    CHECK(d.rule == c.rule);
    CHECK_FALSE(d.message.empty());
  }
}

TEST_CASE("json: deep nesting is rejected before building a DOM") {
  const std::size_t n = 200000;
  const auto arrays = std::string(n, '[') + std::string(n, ']');
  CHECK(read_json_bad(arrays).rule == "too-deep");
  // The same as a value inside a program, unbalanced (the depth check runs before syntax).
  CHECK(read_json_bad(kHead + "\"program\": " + std::string(n, '[')).rule == "too-deep");
  // 20,000 nested loops.
  std::string loops = kHead + "\"program\": [";
  for (int i = 0; i < 20000; ++i) loops += "{\"loop\": \"L" + std::to_string(i) + "\", \"trip\": 1, \"body\": [";
  for (int i = 0; i < 20000; ++i) loops += "]}";
  loops += "]}";
  const auto d = read_json_bad(loops);
  CHECK(d.rule == "too-deep");
  CHECK_FALSE(d.place.empty());
  // Brackets inside strings do not count.
  CHECK(
      read_json_ok(kHead + R"("program": [{"block": {"E0": [{"id": "I0", "note": ")" + std::string(1000, '[') + R"("}]}}]})")
          .body.size() == 1);
}
