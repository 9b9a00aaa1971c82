#include "fuzz/case_check.h"

#include <stdexcept>

#include "analysis/correspondence.h"
#include "analysis/dependency_analysis.h"
#include "checker/explorer.h"
#include "checker/report.h"
#include "model/index.h"
#include "semantics/compiled_program.h"

namespace syncbisim::fuzz {

bool all_allocatable(const model::Program& spec, const model::ProgramIndex& ix) {
  for (const auto& d : analysis::analyze_dependencies(spec, ix).deps)
    if (!d.allocatable()) return false;
  return true;
}

CaseResult check_case(const model::Program& spec, const model::Program& impl, const CaseOptions& options,
                      const Failure* target) {
  CaseResult out;
  const auto six = model::ProgramIndex::build(spec);
  if (!six) {
    out.invalid = "spec: " + six.error().to_string();
    return out;
  }
  const auto iix = model::ProgramIndex::build(impl);
  if (!iix) {
    out.invalid = "impl: " + iix.error().to_string();
    return out;
  }
  if (auto s = analysis::check_correspondence(spec, *six, impl, *iix); !s) {
    out.invalid = "impl does not correspond: " + s.error().to_string();
    return out;
  }
  semantics::CompiledProgram scode, icode;
  try {
    scode = semantics::compile(spec, *six);
    icode = semantics::compile(impl, *iix, &*six);
  } catch (const std::invalid_argument& e) {
    out.invalid = std::string("compile: ") + e.what();
    return out;
  }
  // Only a policy that counts over-synchronization needs to know (the analysis costs a little).
  if (options.policy == Counts::AllOnAllocatable) out.allocatable = all_allocatable(spec, *six);
  const semantics::SpecSystem ss(scode);
  const semantics::ImplSystem is(icode);
  const semantics::Lockstep both(ss, is);
  checker::CheckOptions o;
  o.max_states = options.max_states;
  o.max_seconds = options.max_seconds;
  out.check = checker::check(both, o);
  out.failure = first_failure(both, out.check, options.policy, out.allocatable);
  if (target) out.target_shown = shows(both, out.check, *target, options.policy, out.allocatable);
  if (options.want_traces) {
    out.traces = checker::traces_json(both, out.check);
    out.report = checker::render_text(both, spec, out.check);
  }
  return out;
}

}  // namespace syncbisim::fuzz
