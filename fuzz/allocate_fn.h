#pragma once
// The allocation under test, as a value: fuzz campaigns and the shrinker take it as a parameter,
// so a test can plant a buggy allocator and see that the campaign finds and minimizes its bug.
#include <functional>

#include "allocator/allocate.h"
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::fuzz {

// spec (normalized) and its index -> impl.
using AllocateFn = std::function<model::Result<model::Program>(const model::Program&, const model::ProgramIndex&)>;

// allocator::allocate with `strategy`, registers not pruned.
AllocateFn allocate_with(allocator::Strategy strategy);

}  // namespace syncbisim::fuzz
