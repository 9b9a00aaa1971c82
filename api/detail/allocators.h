#pragma once
// The public API's three kinds of allocator as the campaign's and the shrinker's AllocateFn.
#include "fuzz/allocate_fn.h"
#include "syncbisim/syncbisim.h"

namespace syncbisim::api::detail {

// Declined -> a refusal; any other exception -> AllocatorFault::Error; the returned text is
// parsed like a command's output.
fuzz::AllocateFn adapt(const Allocator& allocator);
fuzz::AllocateFn adapt(const Command& command, const StopToken& stop);
fuzz::AllocateFn adapt(Strategy strategy);

}  // namespace syncbisim::api::detail
