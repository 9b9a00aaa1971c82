#include "latency/check_report.h"

#include <algorithm>
#include <optional>

#include "allocator/closed_form.h"
#include "latency/price.h"

namespace syncbisim::latency {

checker::ReportHints closed_form_hints(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                       const checker::CheckResult& r) {
  checker::ReportHints hints;
  if (std::any_of(r.violations.begin(), r.violations.end(), [](const checker::Violation& v) {
        return v.kind == checker::ViolationKind::UnderSync || v.kind == checker::ViolationKind::OverSync;
      }))
    hints.closed_forms = allocator::per_loop_closed_forms(spec, spec_ix);
  return hints;
}

CheckReport check_report(const semantics::Lockstep& both, const model::Program& spec,
                         const model::ProgramIndex& spec_ix, const model::Program& impl,
                         const model::ProgramIndex& impl_ix, const checker::CheckResult& r,
                         const checker::Coverage* coverage) {
  const auto hints = closed_form_hints(spec, spec_ix, r);
  CheckReport out{checker::render_json(both, spec, r, hints), checker::render_text(both, spec, r, hints), ""};
  // An over-synchronization gets its price in cycles on the timing model (docs/timing.md).
  if (r.verdict == checker::Verdict::OverSynchronized) {
    const auto price = price_over_synchronization(spec, spec_ix, impl, impl_ix);
    out.json["price"] = price_json(price);
    out.text += price_text(price);
  }
  if (coverage) {
    out.json["coverage"] = coverage->render_json();
    out.coverage = coverage->render_text();
  }
  return out;
}

}  // namespace syncbisim::latency
