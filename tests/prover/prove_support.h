#pragma once
// Loading corpus pairs for the prover tests and running both the prover and the explorer on them.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "analysis/correspondence.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "prover/prove.h"
#include "semantics/compiled_program.h"
#include "support/test_files.h"

namespace syncbisim::test {

inline formats::LoadedProgram load_corpus(const std::string& rel, model::ProgramKind kind) {
  auto r = formats::load_program_file((source_dir() / rel).string(), kind);
  REQUIRE_MESSAGE(r.ok(), rel, ": ", (r.ok() ? "" : r.error().to_string()));
  return std::move(*r);
}

inline formats::LoadedProgram load_inline(const std::string& text) {
  auto p = formats::read_text(text);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().to_string()));
  model::normalize(*p);
  auto ix = model::ProgramIndex::build(*p);
  REQUIRE_MESSAGE(ix.ok(), (ix.ok() ? "" : ix.error().to_string()));
  return {std::move(*p), std::move(*ix)};
}

inline prover::ProveResult prove_pair(const formats::LoadedProgram& spec, const model::Program& impl) {
  auto iix = model::ProgramIndex::build(impl);
  REQUIRE(iix.ok());
  REQUIRE(analysis::check_correspondence(spec.program, spec.index, impl, *iix).ok());
  return prover::prove(spec.program, spec.index, impl, *iix);
}

// consumer name -> answer
inline std::map<std::string, prover::Answer> answers(const prover::ProveResult& r) {
  std::map<std::string, prover::Answer> out;
  for (const auto& c : r.consumers) out[c.instr] = c.answer;
  return out;
}

struct Explored {
  std::set<std::string> mismatched;  // instructions with an under- or over-sync mismatch
  std::set<std::string> violated;    // ... or a deadlock standing before them
  checker::CheckResult result;
};

// The exhaustive explorer on the pair; `max_trip` > 0 caps range trips (semantics as check --max-trip).
inline Explored explore(const formats::LoadedProgram& spec, const model::Program& impl, std::uint32_t max_trip = 0) {
  auto pair = checker::ProgramPair::make(spec.program, impl, checker::PairOptions{{}, max_trip});
  REQUIRE(pair.ok());
  const auto& scode = (*pair)->spec_code();
  checker::CheckOptions o;
  o.max_states = 3000000;
  Explored out;
  out.result = checker::check((*pair)->lockstep(), o);
  for (const auto& v : out.result.violations) {
    if (!v.instr) continue;
    const auto& name = scode.instrs[*v.instr].name;
    out.violated.insert(name);
    if (v.kind != checker::ViolationKind::Deadlock) out.mismatched.insert(name);
  }
  return out;
}

}  // namespace syncbisim::test
