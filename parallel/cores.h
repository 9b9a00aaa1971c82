#pragma once
// How many threads a --jobs or --threads count means, for the command line, the public API and
// the layers that run jobs themselves: 0 means every core. (Running indexed jobs on them:
// parallel/run_indexed.h.)
#include <algorithm>
#include <thread>

namespace syncbisim::parallel {

// Every core, at least one.
inline unsigned every_core() { return std::max(1u, std::thread::hardware_concurrency()); }

// A --jobs or --threads count as given: 0 (the default) means every core.
inline unsigned given_or_every_core(unsigned n) { return n > 0 ? n : every_core(); }

}  // namespace syncbisim::parallel
