#pragma once
// Programs for tests: a program's text loaded and indexed, and program files of the source tree
// (tests/inputs, corpus/), each REQUIREd to load.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "formats/expr_parser.h"
#include "formats/load.h"
#include "support/test_files.h"

namespace syncbisim::test {

// A program's text, in either format, loaded and indexed; `name` stands in its diagnostics.
inline formats::LoadedProgram load_text(const std::string& text, const std::string& name = "test") {
  auto r = formats::load_program_text(text, name);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  return std::move(*r);
}

// A program file below the source tree, e.g. "corpus/figures/fig1_motivating.json".
inline formats::LoadedProgram load_source(const std::string& rel) {
  auto r = formats::load_program_file((source_dir() / rel).string());
  REQUIRE_MESSAGE(r.ok(), rel, ": ", (r.ok() ? "" : r.error().to_string()));
  return std::move(*r);
}

// An expression's text parsed (docs/formats.md "Expressions").
inline model::Expr parse_expr(const std::string& text) {
  auto e = formats::parse_expr(text, "test");
  REQUIRE_MESSAGE(e.ok(), (e.ok() ? "" : e.error().to_string()));
  return *e;
}

// The text of `nests` loops in a row, each with two producers on E0 (one producer pair, so the
// expert's sharing is a choice) and a consumer on E1 that the next nest's first producer waits for.
inline std::string nest_chain_spec(int nests) {
  std::string s = "syncbisim spec/1\nengines E0 E1\n";
  std::string deps;
  for (int k = 0; k < nests; ++k) {
    const auto n = std::to_string(k);
    s += "loop L" + n + " trip 1..2 {\n  E0: P" + n + " Q" + n + "\n  E1: C" + n + "\n}\n";
    deps += "dep P" + n + " -> C" + n + "\ndep Q" + n + " -> C" + n + " distance L" + n + "=1\n";
    if (k + 1 < nests) deps += "dep C" + n + " -> P" + std::to_string(k + 1) + "\n";
  }
  return s + deps;
}

}  // namespace syncbisim::test
