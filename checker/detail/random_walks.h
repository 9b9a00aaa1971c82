#pragma once
// Internal to the explorer: random mode, seeded walks with the same checks at every state.
#include "checker/check_result.h"
#include "checker/explorer.h"

namespace syncbisim::checker::detail {

CheckResult random_walks(const semantics::Lockstep& both, const CheckOptions& o);

}  // namespace syncbisim::checker::detail
