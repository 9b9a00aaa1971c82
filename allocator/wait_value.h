#pragma once
// The pieces of paper §5.2-5.5 every barrier-free strategy shares: expr and the mask.
#include "allocator/context.h"

namespace syncbisim::allocator {

// paper §5.2: expr = r_P - k for a producer in S, r_P for the nested cases (forward k = 0,
// backward k = 1, exclusive branches: docs/analysis.md). Read on the consumer's engine.
model::Expr wait_expr(Context& ctx, const analysis::DependencyInfo& d);
// paper §5.5 eq. (3): mask * value, the mask omitted where rh_S is elided.
model::Expr masked(Context& ctx, const analysis::DependencyInfo& d, const model::Expr& value);

}  // namespace syncbisim::allocator
