#pragma once
// Swarm testing (Groce, Zhang, Eide, Chen, Regehr, ISSTA 2012): every draw first picks which
// features of the generator are on, then draws a spec with only those. One configuration with
// every feature on drowns the rare combinations (three nested producers at offset 2 in a spec
// without conds, say) under the common ones; a draw that turns features off reaches them, and a
// bug that some feature hides (a cond that makes a wait conservative) shows in the draws without
// it. docs/fuzzing.md "What a campaign draws" lists the features.
#include <rapidcheck.h>

#include "generators/spec_gen.h"

namespace syncbisim::generators {

// `base` with the swarm's features drawn: conds, ranges, sequences and zero trips on or off;
// dependencies of one engine or across engines only; producers in S, nested or both; the largest
// offset (1 or 2); one or several dependencies per consumer; two or three engines; depth one or
// two. The limits of `base` (max_engines, max_depth, ...) are never raised.
rc::Gen<SpecGenOptions> gen_swarm_options(SpecGenOptions base);

// A spec drawn under a swarm configuration.
rc::Gen<model::Program> gen_swarm_spec(SpecGenOptions base);

}  // namespace syncbisim::generators
