#pragma once
// Running the checker on a spec and an impl given as file contents (JSON or text).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "analysis/correspondence.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "model/index.h"
#include "semantics/compiled_program.h"

namespace syncbisim::test {

struct Pair {
  model::Program spec, impl;
  model::ProgramIndex spec_ix, impl_ix;
  semantics::CompiledProgram spec_code, impl_code;
};

// Each program in either format (formats::load_program_text tells JSON from text).
inline std::unique_ptr<Pair> load_pair(const std::string& spec_text, const std::string& impl_text) {
  auto sp = formats::load_program_text(spec_text, "spec");
  REQUIRE_MESSAGE(sp.ok(), (sp.ok() ? "" : sp.error().to_string()));
  auto ip = formats::load_program_text(impl_text, "impl");
  REQUIRE_MESSAGE(ip.ok(), (ip.ok() ? "" : ip.error().to_string()));
  auto p = std::make_unique<Pair>(Pair{std::move(sp->program), std::move(ip->program), std::move(sp->index),
                                       std::move(ip->index), {}, {}});
  auto corr = analysis::check_correspondence(p->spec, p->spec_ix, p->impl, p->impl_ix);
  REQUIRE_MESSAGE(corr.ok(), (corr.ok() ? "" : corr.error().to_string()));
  p->spec_code = semantics::compile(p->spec, p->spec_ix);
  p->impl_code = semantics::compile(p->impl, p->impl_ix, &p->spec_ix);
  return p;
}

// Checks with or without the reductions (and commit fusion, which goes with them).
inline checker::CheckResult run_check(const Pair& p, checker::CheckOptions o = {}) {
  auto pair = checker::ProgramPair::make(p.spec, p.impl, semantics::Options{o.reduction});
  REQUIRE(pair.ok());
  return checker::check((*pair)->lockstep(), o);
}

}  // namespace syncbisim::test
