// Names and extra fields as docs/formats.md says (issue 18 class 6): names may hold '-' and be
// keywords of the text format wherever its grammar cannot mistake them; both formats carry them
// back (read(write(p)) == p). Text errors report line:col, never a JSON pointer.
#include <doctest/doctest.h>

#include <string>

#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"

using namespace syncbisim;

namespace {

model::Program load_ok(const std::string& content) {
  auto r = formats::load_program_text(content, "in");
  INFO((r ? std::string("ok") : r.error().to_string()));
  REQUIRE(r.ok());
  return r->program;
}

void round_trips(const model::Program& p) {
  const auto text = formats::write_text(p);
  INFO(text);
  const auto from_text = formats::load_program_text(text, "t.sb");
  INFO((from_text ? std::string("ok") : from_text.error().to_string()));
  REQUIRE(from_text.ok());
  CHECK(from_text->program == p);
  const auto json = formats::write_json(p);
  const auto from_json = formats::load_program_text(json, "t.json");
  REQUIRE(from_json.ok());
  CHECK(from_json->program == p);
}

}  // namespace

TEST_CASE("names: '-' in engine, instruction, loop, cond and semaphore names, both formats") {
  const auto spec = load_ok(
      "syncbisim spec/1\nengines dma-0 pe-1\ndma-0: load-a\nloop tile-k trip 2 {\n  pe-1: mm-1\n  cond c-1 {\n"
      "    pe-1: x-\n  }\n}\ndep load-a->mm-1\ndep x- -> mm-1 distance tile-k=1\n");
  CHECK(spec.engines == std::vector<std::string>{"dma-0", "pe-1"});
  REQUIRE(spec.deps.size() == 2);
  CHECK(spec.deps[0].producer == "load-a");  // "->" ends a name
  CHECK(spec.deps[0].consumer == "mm-1");
  CHECK(spec.deps[1].producer == "x-");
  round_trips(spec);
  const auto impl = load_ok(
      "syncbisim impl/1\nengines dma-0 pe-1\nsemaphores s-0\ndma-0: load-a {s-0 += 1}\n"
      "pe-1: {s-0 >= 1} mm-1 barrier(s-0)\n");
  round_trips(impl);
  const auto json = load_ok(R"({"syncbisim": "spec/1", "engines": ["E-0"], "program": [{"block": {"E-0": ["I-0"]}}]})");
  round_trips(json);
}

TEST_CASE("names: keywords name engines, loops, conds, instructions, semaphores and registers") {
  const auto spec = load_ok(
      "syncbisim spec/1\nengines loop cond syncbisim engines\nloop: dep\ncond: then\nsyncbisim: else\nengines: any\n"
      "loop trip trip per_engine(loop: 2; default 1) {\n  loop: trip.x\n  cond: per_engine\n}\n"
      "cond taken taken any {\n  cond: default\n}\ndep per_engine -> trip.x distance trip=1\ndep dep -> default\n");
  CHECK(spec.engines == std::vector<std::string>{"loop", "cond", "syncbisim", "engines"});
  round_trips(spec);
  const auto impl = load_ok(
      "syncbisim impl/1\nengines loop\nsemaphores barrier\nloop: [isgt := 1] [loop := isgt + 1] {barrier >= loop} "
      "dep {barrier += 1} barrier(barrier)\n");
  round_trips(impl);
  // A headerless file whose first line is a block of an engine named syncbisim.
  const auto headerless = load_ok("engines syncbisim\nsyncbisim: I0\n");
  CHECK(headerless.engines == std::vector<std::string>{"syncbisim"});
}

TEST_CASE("names: the two names a format could not carry stay refused") {
  const auto barrier = formats::load_program_text(
      R"({"syncbisim": "impl/1", "engines": ["E0"], "program": [{"block": {"E0": ["barrier"]}}]})", "b.json");
  REQUIRE_FALSE(barrier.ok());
  CHECK(barrier.error().rule == "bad-name");
  const auto dash =
      formats::load_program_text("syncbisim impl/1\nengines E0\nsemaphores s0\nE0: {s0 >= r-1} I0\n", "d.sb");
  REQUIRE_FALSE(dash.ok());
  CHECK(dash.error().rule == "bad-name");
  CHECK(dash.error().message.find("'r-1'") != std::string::npos);
}

TEST_CASE("names: a bad declaration in a text file is reported at its line:col") {
  const auto engine = formats::load_program_text("syncbisim spec/1\nengines E0\nengines E1 E0\nE0: I0\n", "e.sb");
  REQUIRE_FALSE(engine.ok());
  CHECK(engine.error().rule == "duplicate-engine");
  CHECK(engine.error().place == "3:12");
  const auto twice = formats::load_program_text("syncbisim impl/1\nengines E0\nsemaphores s0  s0\nE0: I0\n", "s.sb");
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.error().rule == "duplicate-semaphore");
  CHECK(twice.error().place == "3:16");
  const auto none = formats::load_program_text("syncbisim spec/1\n\nengines\n", "n.sb");
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().rule == "no-engines");
  CHECK(none.error().place == "3:1");
  const auto kind = formats::load_program_file(
      (std::string(SYNCBISIM_SOURCE_DIR) + "/corpus/good/fig5_per_loop.impl.sb"), model::ProgramKind::Spec);
  REQUIRE_FALSE(kind.ok());
  CHECK(kind.error().rule == "wrong-kind");
  CHECK(kind.error().place == "1:1");
}

TEST_CASE("extra fields: kept as JSON values, a whole number past 64 bits is refused, not rounded") {
  const auto p =
      load_ok(R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [{"block": {"E0": [)"
              R"({"id": "I0", "big": 18446744073709551615, "neg": -9223372036854775808, "f": 0.5, "s": "x"}]}}]})");
  round_trips(p);
  for (const char* n : {"123456789012345678901234567890", "18446744073709551616", "-9223372036854775809"}) {
    INFO(n);
    const std::string json =
        std::string(R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [{"block": {"E0": [)") +
        R"({"id": "I0", "hash": )" + n + "}]}}]}";
    const auto r = formats::load_program_text(json, "x.json");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().rule == "bad-number");
    CHECK(r.error().place == "/program/0/block/E0/0/hash");
    const auto t =
        formats::load_program_text(std::string("syncbisim spec/1\nengines E0\nE0: I0@{\"hash\": ") + n + "}\n", "x.sb");
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().rule == "bad-number");
    CHECK(t.error().place == "3:8");
  }
}
