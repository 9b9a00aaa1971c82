#pragma once
// Test programs written in the text format, compiled for the transition systems.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "formats/load.h"
#include "model/index.h"
#include "semantics/compiled_program.h"
#include "semantics/impl_system.h"
#include "semantics/spec_system.h"

namespace syncbisim::test {

struct Loaded {
  model::Program program;
  model::ProgramIndex index;
  semantics::CompiledProgram code;
};

// Parses and compiles; fails the test on a bad program. `spec` supplies an impl's trips.
inline std::unique_ptr<Loaded> load(const std::string& text, const Loaded* spec = nullptr) {
  auto p = formats::load_program_text(text, "test");
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().to_string()));
  auto out = std::make_unique<Loaded>(Loaded{std::move(p->program), std::move(p->index), {}});
  out->code = semantics::compile(out->program, out->index, spec ? &spec->index : nullptr);
  return out;
}

inline semantics::EngineId engine(const Loaded& l, const std::string& name) { return *l.index.engine(name); }
inline semantics::InstrId instr(const Loaded& l, const std::string& name) { return *l.index.instr(name); }

}  // namespace syncbisim::test
