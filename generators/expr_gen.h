#pragma once
// Random register-operation expressions (docs/semantics.md §4) over a fixed set of register names.
#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/expr.h"

namespace syncbisim::generators {

// Register names the impl generator uses: shaped like the allocator's (rA, rhA), short, and
// never a keyword of either format.
std::vector<std::string> register_names();

rc::Gen<std::string> gen_register();

// Constants: mostly small, sometimes the edges of the 64-bit range.
rc::Gen<std::uint64_t> gen_constant();

// A tree of + - * isgt over constants and registers, at most `max_depth` operators deep.
rc::Gen<model::Expr> gen_expr(std::uint32_t max_depth = 3);

}  // namespace syncbisim::generators
