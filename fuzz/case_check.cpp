#include "fuzz/case_check.h"

#include "allocator/closed_form.h"
#include "analysis/dependency_analysis.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/report.h"
#include "model/index.h"

namespace syncbisim::fuzz {

bool all_allocatable(const model::Program& spec, const model::ProgramIndex& ix) {
  for (const auto& d : analysis::analyze_dependencies(spec, ix).deps)
    if (!d.allocatable()) return false;
  return true;
}

CaseResult check_case(const model::Program& spec, const model::Program& impl, const CaseOptions& options,
                      const ViolationAt* target) {
  CaseResult out;
  auto pair = checker::ProgramPair::make(spec, impl);
  if (!pair) {
    out.invalid = pair.error().to_string();
    return out;
  }
  // Only a policy that counts over-synchronization needs to know (the analysis costs a little).
  if (options.policy == Counts::AllOnAllocatable) out.allocatable = all_allocatable(spec, (*pair)->spec_index());
  const auto& both = (*pair)->lockstep();
  checker::CheckOptions o;
  o.max_states = options.max_states;
  o.max_seconds = options.max_seconds;
  out.check = checker::check(both, o);
  out.failure = first_failure(both, out.check, options.policy, out.allocatable);
  if (target) out.target_shown = shows(both, out.check, *target, options.policy, out.allocatable);
  if (options.want_traces) {
    out.traces = checker::traces_json(both, out.check);
    // A failure's report names the per-loop closed form of the failing dependency (issue 42).
    checker::ReportHints hints;
    if (out.failure) hints.closed_forms = allocator::per_loop_closed_forms(spec, (*pair)->spec_index());
    out.report = checker::render_text(both, spec, out.check, hints);
  }
  return out;
}

}  // namespace syncbisim::fuzz
