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

}  // namespace syncbisim::test
