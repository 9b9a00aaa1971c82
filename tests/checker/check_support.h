#pragma once
// Running the checker on a spec and an impl written inline in the text format.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "analysis/correspondence.h"
#include "checker/explorer.h"
#include "formats/text_format.h"
#include "model/index.h"
#include "semantics/compiled_program.h"

namespace syncbisim::test {

struct Pair {
  model::Program spec, impl;
  model::ProgramIndex spec_ix, impl_ix;
  semantics::CompiledProgram spec_code, impl_code;
};

inline std::unique_ptr<Pair> load_pair(const std::string& spec_text, const std::string& impl_text) {
  auto sp = formats::read_text(spec_text);
  REQUIRE_MESSAGE(sp.ok(), (sp.ok() ? "" : sp.error().to_string()));
  auto ip = formats::read_text(impl_text);
  REQUIRE_MESSAGE(ip.ok(), (ip.ok() ? "" : ip.error().to_string()));
  auto six = model::ProgramIndex::build(*sp);
  REQUIRE_MESSAGE(six.ok(), (six.ok() ? "" : six.error().to_string()));
  auto iix = model::ProgramIndex::build(*ip);
  REQUIRE_MESSAGE(iix.ok(), (iix.ok() ? "" : iix.error().to_string()));
  auto corr = analysis::check_correspondence(*sp, *six, *ip, *iix);
  REQUIRE_MESSAGE(corr.ok(), (corr.ok() ? "" : corr.error().to_string()));
  auto p = std::make_unique<Pair>(Pair{std::move(*sp), std::move(*ip), std::move(*six), std::move(*iix), {}, {}});
  p->spec_code = semantics::compile(p->spec, p->spec_ix);
  p->impl_code = semantics::compile(p->impl, p->impl_ix, &p->spec_ix);
  return p;
}

// Checks with or without the reductions (and commit fusion, which goes with them).
inline checker::CheckResult run_check(const Pair& p, checker::CheckOptions o = {}) {
  const semantics::Options sem{o.reduction};
  const semantics::SpecSystem spec(p.spec_code, sem);
  const semantics::ImplSystem impl(p.impl_code, sem);
  const semantics::Lockstep both(spec, impl);
  return checker::check(both, o);
}

}  // namespace syncbisim::test
