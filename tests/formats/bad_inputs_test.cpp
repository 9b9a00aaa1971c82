// Every file in tests/inputs/bad is malformed in one way; its name says which rule it breaks
// ("<rule>__<what>.json" or ".sb"). docs/formats.md "Bad input": one clean error, with a place.
#include <doctest/doctest.h>

#include <set>

#include "formats/load.h"
#include "model/quote.h"
#include "support/test_files.h"

using namespace syncbisim;

TEST_CASE("bad inputs: each file fails with the rule its name gives") {
  std::set<std::string> rules;
  std::size_t n = 0;
  for (const auto& ext : {".json", ".sb"}) {
    for (const auto& path : test::files_in("tests/inputs/bad", ext)) {
      const auto name = path.filename().string();
      const auto sep = name.find("__");
      INFO(name);
      REQUIRE(sep != std::string::npos);
      const auto rule = name.substr(0, sep);
      auto r = formats::load_program_text(test::read_text(path), name);
      REQUIRE_FALSE(r.ok());
      INFO(r.error().to_string());
      CHECK(r.error().rule == rule);
      CHECK_FALSE(r.error().place.empty());
      CHECK(r.error().file == name);
      // docs/formats.md "Messages": one printable line of valid UTF-8, of a readable length.
      const auto line = r.error().to_string();
      CHECK(line.find('\n') == std::string::npos);
      CHECK(model::printable(line) == line);
      CHECK(line.size() < 1000);
      CHECK(line.find("json.exception") == std::string::npos);
      rules.insert(rule);
      ++n;
    }
  }
  CHECK(n >= 60);
  // The rules docs/formats.md names, and those model/index.cpp emits, all have a file.
  for (const char* rule : {"bad-json",
                           "unknown-field",
                           "duplicate-instr",
                           "duplicate-loop",
                           "duplicate-engine",
                           "duplicate-semaphore",
                           "distance-not-common",
                           "undeclared-semaphore",
                           "bad-version",
                           "bad-type",
                           "bad-number",
                           "bad-trip",
                           "bad-taken",
                           "spec-has-sync",
                           "spec-has-regop",
                           "spec-has-barrier",
                           "impl-has-deps",
                           "unknown-engine",
                           "unknown-instr",
                           "unknown-loop",
                           "bad-expr",
                           "too-deep",
                           "bad-name",
                           "no-engines",
                           "spec-has-semaphores",
                           "bad-signal",
                           "missing-trip",
                           "missing-field",
                           "duplicate-key",
                           "bad-item",
                           "bad-stmt",
                           "syntax"}) {
    INFO(rule);
    CHECK(rules.count(rule) == 1);
  }
}

TEST_CASE("bad inputs: files that cannot be read give rule io") {
  auto r = formats::load_program_file("/nonexistent/dir/prog.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rule == "io");
  CHECK(r.error().file == "/nonexistent/dir/prog.json");
  auto d = formats::load_program_file(test::source_dir().string());
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().rule == "io");
}

TEST_CASE("bad inputs: loading insists on a kind when asked") {
  const auto spec = (test::source_dir() / "corpus/figures/fig7_fig8.json").string();
  CHECK(formats::load_program_file(spec, model::ProgramKind::Spec).ok());
  auto r = formats::load_program_file(spec, model::ProgramKind::Impl);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rule == "wrong-kind");
  CHECK(r.error().message == "expected an impl/1 program, found spec/1");
  auto s = formats::load_program_file((test::source_dir() / "corpus/good/fig5_per_loop.impl.sb").string(),
                                      model::ProgramKind::Spec);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "expected a spec/1 program, found impl/1");
}

TEST_CASE("bad inputs: generated deep nests (text and JSON) give too-deep, not a crash") {
  std::string text = "engines E0\n";
  for (int i = 0; i < 20000; ++i) text += "loop L" + std::to_string(i) + " trip 1 {\n";
  for (int i = 0; i < 20000; ++i) text += "}\n";
  CHECK(formats::load_program_text(text, "deep.sb").error().rule == "too-deep");
  std::string json = R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [)";
  for (int i = 0; i < 20000; ++i) json += R"({"loop": "L)" + std::to_string(i) + R"(", "trip": 1, "body": [)";
  for (int i = 0; i < 20000; ++i) json += "]}";
  json += "]}";
  CHECK(formats::load_program_text(json, "deep.json").error().rule == "too-deep");
  const std::string arrays = std::string(200000, '[') + std::string(200000, ']');
  const auto r = formats::load_program_text(arrays, "arrays.json");
  CHECK(r.error().rule == "too-deep");
  CHECK(r.error().place == "1:201");
}
