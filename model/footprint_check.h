#pragma once
// The loader's rules for footprints (docs/footprints.md "The format"): buffers declared once in a
// spec, every access naming a declared buffer with one subscript per dimension, indices reading
// only loops around the instruction, and no index past the buffer's shape at any iteration the
// trips allow. Footprints under conds and divergent trips are refused until they are designed.
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::model {

// `ix` built from `p` (ProgramIndex::build calls this last).
Status check_footprints(const Program& p, const ProgramIndex& ix);

// The least and largest value an index takes with each loop in [0, max_iter(loop)]: exact for
// an expression linear in the loops (corners), an over-approximation by intervals otherwise.
struct IndexBounds {
  std::int64_t lo = 0, hi = 0;
};
std::optional<IndexBounds> index_bounds(const IndexExpr& e,
                                        const std::function<std::int64_t(const std::string&)>& max_iter);

}  // namespace syncbisim::model
