#pragma once
// What `check` prints of a result, for the command and the public API alike (so that the two
// cannot drift): the checker's report with the per-loop closed form under each mismatch
// (allocator/closed_form.h), the price of an over-synchronization on the timing model
// (latency/price.h), and the coverage when it was counted.
#include <string>

#include <nlohmann/json.hpp>

#include "checker/check_result.h"
#include "checker/coverage.h"
#include "checker/report.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::latency {

struct CheckReport {
  nlohmann::json json;   // check/1, with "price" and "coverage" where they apply
  std::string text;      // the report, then the price line
  std::string coverage;  // the coverage's text ("" without), printed after a blank line
};

// The closed forms to show, computed (one allocation) only when a mismatch will show one.
checker::ReportHints closed_form_hints(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                       const checker::CheckResult& r);

CheckReport check_report(const semantics::Lockstep& both, const model::Program& spec,
                         const model::ProgramIndex& spec_ix, const model::Program& impl,
                         const model::ProgramIndex& impl_ix, const checker::CheckResult& r,
                         const checker::Coverage* coverage = nullptr);

}  // namespace syncbisim::latency
