#include "generators/expr_gen.h"

#include <limits>

#include "generators/sized.h"

namespace syncbisim::generators {

std::vector<std::string> register_names() { return {"rA", "rhA", "rB", "w", "r_0", "t1"}; }

rc::Gen<std::string> gen_register() { return rc::gen::elementOf(register_names()); }

rc::Gen<std::uint64_t> gen_constant() {
  return weighted_one_of<std::uint64_t>(
      {{8, rc::gen::inRange<std::uint64_t>(0, 10)},
       {1, rc::gen::element<std::uint64_t>(1000, std::uint64_t{1} << 40, std::numeric_limits<std::uint64_t>::max())}});
}

rc::Gen<model::Expr> gen_expr(std::uint32_t max_depth) {
  auto constant = rc::gen::map(gen_constant(), [](std::uint64_t v) { return model::Expr::constant(v); });
  auto reg = rc::gen::map(gen_register(), [](std::string r) { return model::Expr::reg(std::move(r)); });
  auto leaf = rc::gen::oneOf(constant, reg);
  if (max_depth == 0) return leaf;
  const auto sub = gen_expr(max_depth - 1);
  const auto op = rc::gen::element(model::ExprOp::Add, model::ExprOp::Sub, model::ExprOp::Mul, model::ExprOp::IsGt);
  auto binary = rc::gen::apply(
      [](model::ExprOp o, model::Expr a, model::Expr b) { return model::Expr::binary(o, a, b); }, op, sub, sub);
  // Leaves first: shrinking collapses trees to constants.
  return weighted_one_of<model::Expr>({{2, leaf}, {1, binary}});
}

}  // namespace syncbisim::generators
