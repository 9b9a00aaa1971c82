#pragma once
// Structural correspondence of an impl to its spec (docs/semantics.md §5): same engines, same loop
// tree (loop and cond ids, nesting, order), the same per-engine datapath instruction sequence
// between loop statements (consecutive blocks merge per engine), and trips that agree where
// the impl gives them. The first difference is reported with the impl's place.
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::analysis {

model::Status check_correspondence(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                   const model::Program& impl, const model::ProgramIndex& impl_ix);

}  // namespace syncbisim::analysis
