// The naturals of paper §4 as the tool computes them: model::apply_op and Expr::eval are checked,
// so a value past 2^64 - 1 (what the tool represents) is reported and never wraps
// (docs/semantics.md "Widths").
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "model/expr.h"

using syncbisim::model::apply_op;
using syncbisim::model::Expr;
using syncbisim::model::ExprOp;

TEST_CASE("apply_op: exact results up to 2^64 - 1, false past it") {
  constexpr std::uint64_t top = UINT64_MAX;
  std::uint64_t v = 0;
  REQUIRE(apply_op(ExprOp::Add, top - 1, 1, v));
  CHECK(v == top);
  CHECK_FALSE(apply_op(ExprOp::Add, top, 1, v));  // wrapped, this would be 0
  CHECK_FALSE(apply_op(ExprOp::Add, top, top, v));
  REQUIRE(apply_op(ExprOp::Mul, 4294967296ULL, 4294967295ULL, v));
  CHECK(v == 18446744069414584320ULL);
  CHECK_FALSE(apply_op(ExprOp::Mul, 4294967296ULL, 4294967296ULL, v));  // 2^64, wrapped 0
  CHECK_FALSE(apply_op(ExprOp::Mul, 3, 6148914691236517206ULL, v));     // wrapped, 2
  REQUIRE(apply_op(ExprOp::Mul, top, 0, v));
  CHECK(v == 0);
  REQUIRE(apply_op(ExprOp::Mul, top, 1, v));
  CHECK(v == top);
  // Subtraction truncates at 0 and isgt is 0 or 1: neither can pass the range.
  REQUIRE(apply_op(ExprOp::Sub, 3, 5, v));
  CHECK(v == 0);
  REQUIRE(apply_op(ExprOp::Sub, top, 0, v));
  CHECK(v == top);
  REQUIRE(apply_op(ExprOp::IsGt, top, top - 1, v));
  CHECK(v == 1);
}

TEST_CASE("Expr::eval is empty when any operator passes 2^64 - 1, even if the end value would fit") {
  const auto none = [](const std::string&) -> std::uint64_t { return 0; };
  const auto r_is_1 = [](const std::string&) -> std::uint64_t { return 1; };
  const auto two_64 = Expr::binary(ExprOp::Mul, Expr::constant(4294967296ULL), Expr::constant(4294967296ULL));
  CHECK_FALSE(two_64.eval(none).has_value());
  // (2^64) - 1 fits at the end, but its first value does not: on hardware it would have wrapped.
  CHECK_FALSE(Expr::binary(ExprOp::Sub, two_64, Expr::constant(1)).eval(none).has_value());
  const auto product =
      Expr::binary(ExprOp::Mul, Expr::binary(ExprOp::Mul, Expr::reg("r"), Expr::constant(4294967296ULL)),
                   Expr::constant(4294967296ULL));
  CHECK_FALSE(product.eval(r_is_1).has_value());
  CHECK(product.eval(none) == std::uint64_t{0});
  CHECK(Expr::binary(ExprOp::Add, Expr::constant(UINT64_MAX - 1), Expr::constant(1)).eval(none) == UINT64_MAX);
}
