#include "allocator/wait_value.h"

#include "allocator/expr_build.h"

namespace syncbisim::allocator {

model::Expr wait_expr(Context& ctx, const analysis::DependencyInfo& d) {
  const auto r = ctx.regs.r(d.P, d.consumer_engine);
  return d.cls == analysis::DepClass::ProducerInS ? sub(r, num(d.offset)) : r;
}

model::Expr masked(Context& ctx, const analysis::DependencyInfo& d, const model::Expr& value) {
  const auto m = ctx.mask(d.S, d.offset, d.consumer_engine);
  return m ? mul(*m, value) : value;
}

}  // namespace syncbisim::allocator
