#pragma once
// Building wait-value expressions with the trivial constant folds (x*1, x+0, x-0, constant
// operands), so the emitted register operations carry no dead ALU work and read like the paper's
// figures: N = 1, K = N gives `mask * expr`, not `mask * (1 * expr - 0)`.
#include <cstdint>

#include "model/expr.h"

namespace syncbisim::allocator {

model::Expr num(std::uint64_t v);
model::Expr add(const model::Expr& a, const model::Expr& b);
model::Expr sub(const model::Expr& a, const model::Expr& b);  // truncated at 0 (docs/semantics.md §4)
model::Expr mul(const model::Expr& a, const model::Expr& b);
model::Expr isgt(const model::Expr& a, const model::Expr& b);

}  // namespace syncbisim::allocator
