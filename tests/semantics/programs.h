#pragma once
// Test programs written in the text format, compiled for the transition systems.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/load.h"
#include "generators/spec_gen.h"
#include "model/index.h"
#include "semantics/compiled_program.h"
#include "semantics/impl_system.h"
#include "semantics/spec_system.h"
#include "support/test_files.h"

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

// A spec of the generator, compiled (valid by construction: RC_ASSERT), for property tests.
inline std::unique_ptr<Loaded> gen_loaded_spec(const generators::SpecGenOptions& o) {
  auto prog = *generators::gen_spec(o);
  auto ix = model::ProgramIndex::build(prog);
  RC_ASSERT(ix.ok());
  auto out = std::make_unique<Loaded>(Loaded{std::move(prog), std::move(*ix), {}});
  out->code = semantics::compile(out->program, out->index);
  return out;
}

// load() of a file of the source tree (the corpus's figures, say).
inline std::unique_ptr<Loaded> load_file(const std::string& relative, const Loaded* spec = nullptr) {
  return load(read_text(source_dir() / relative), spec);
}

// Takes the first enabled step (of engine `only`, if given) until none is left: one fixed
// schedule, for tests that care about where a run ends rather than how it got there.
template <class System, class State>
void run_first_steps(const System& sys, State& s, std::optional<semantics::EngineId> only = std::nullopt) {
  std::vector<semantics::Step> steps;
  for (;;) {
    steps = only ? semantics::expanded(sys, s, *only) : semantics::expanded(sys, s);
    if (steps.empty()) return;
    sys.apply(s, steps.front());
  }
}

inline semantics::EngineId engine(const Loaded& l, const std::string& name) { return *l.index.engine(name); }
inline semantics::InstrId instr(const Loaded& l, const std::string& name) { return *l.index.instr(name); }

}  // namespace syncbisim::test
