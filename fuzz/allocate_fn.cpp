#include "fuzz/allocate_fn.h"

namespace syncbisim::fuzz {

AllocateFn allocate_with(allocator::Strategy strategy) {
  return [strategy](const model::Program& spec, const model::ProgramIndex& ix) -> model::Result<model::Program> {
    auto a = allocator::allocate(spec, ix, allocator::Options{strategy, false});
    if (!a) return a.error();
    return std::move(a->impl);
  };
}

}  // namespace syncbisim::fuzz
