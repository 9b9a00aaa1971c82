// The expression grammar of docs/semantics.md §4 as formats/expr_parser.h reads it.
#include <doctest/doctest.h>

#include "formats/expr_parser.h"

using namespace syncbisim;
using model::Expr;
using model::ExprOp;

namespace {
Expr parse_ok(const std::string& s) {
  auto r = formats::parse_expr(s, "/x");
  INFO(s, " -> ", r ? std::string("ok") : r.error().to_string());
  REQUIRE(r.ok());
  return *r;
}
Expr R(const char* n) { return Expr::reg(n); }
Expr C(std::uint64_t v) { return Expr::constant(v); }
Expr B(ExprOp op, const Expr& a, const Expr& b) { return Expr::binary(op, a, b); }
}  // namespace

TEST_CASE("expr: atoms") {
  CHECK(parse_ok("0") == C(0));
  CHECK(parse_ok("  18446744073709551615 ") == C(18446744073709551615ull));
  CHECK(parse_ok("rA") == R("rA"));
  CHECK(parse_ok("r_h.A") == R("r_h.A"));
  CHECK(parse_ok("((rA))") == R("rA"));
}

TEST_CASE("expr: * binds tighter than + and -, both left-associative") {
  CHECK(parse_ok("a + b * c") == B(ExprOp::Add, R("a"), B(ExprOp::Mul, R("b"), R("c"))));
  CHECK(parse_ok("a * b + c") == B(ExprOp::Add, B(ExprOp::Mul, R("a"), R("b")), R("c")));
  CHECK(parse_ok("a - b - c") == B(ExprOp::Sub, B(ExprOp::Sub, R("a"), R("b")), R("c")));
  CHECK(parse_ok("a - (b - c)") == B(ExprOp::Sub, R("a"), B(ExprOp::Sub, R("b"), R("c"))));
  CHECK(parse_ok("a*b*c") == B(ExprOp::Mul, B(ExprOp::Mul, R("a"), R("b")), R("c")));
  CHECK(parse_ok("(a + b) * c") == B(ExprOp::Mul, B(ExprOp::Add, R("a"), R("b")), R("c")));
}

TEST_CASE("expr: isgt and the paper's wait values (Figures 7 and 8)") {
  const auto mask = B(ExprOp::IsGt, R("rhA"), C(0));
  CHECK(parse_ok("isgt(rhA, 0) * rA") == B(ExprOp::Mul, mask, R("rA")));
  CHECK(parse_ok("isgt(rhA,0)*(2*rA)") == B(ExprOp::Mul, mask, B(ExprOp::Mul, C(2), R("rA"))));
  CHECK(parse_ok("isgt(rhA, 1) * (2 * (rA - 1) - 1)").alu_cost() == 5);  // paper §5.5: five per issue
  // "isgt" without a call is an ordinary register name.
  CHECK(parse_ok("isgt + 1") == B(ExprOp::Add, R("isgt"), C(1)));
}

TEST_CASE("expr: to_string parses back to the same tree") {
  for (const char* s : {"a - (b - c)", "(a + b) * (c - d)", "isgt(a - b, c * (d + 1)) * 3", "a * (b * c)", "a - b + c",
                        "a - (b + c)", "((a))", "isgt(isgt(a, b), 0)"}) {
    const auto e = parse_ok(s);
    CHECK(parse_ok(e.to_string()) == e);
  }
}

TEST_CASE("expr: errors carry the place and a rule") {
  for (const char* bad :
       {"", "a +", "-1", "a b", "(a", "isgt(a)", "isgt(a, b", "1a", "a ++ b", "99999999999999999999999", "a $ b"}) {
    auto r = formats::parse_expr(bad, "/program/0");
    INFO(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().place == "/program/0");
    CHECK(r.error().rule == "bad-expr");
  }
}

TEST_CASE("expr: nesting is limited with rule too-deep, no stack overflow") {
  const std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
  CHECK(formats::parse_expr(deep, "p").error().rule == "bad-expr");  // too long to even start
  const std::string parens = std::string(1000, '(') + "1" + std::string(1000, ')');
  auto r = formats::parse_expr(parens, "p");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rule == "too-deep");
  std::string calls;
  for (int i = 0; i < 300; ++i) calls += "isgt(";
  calls += "1";
  for (int i = 0; i < 300; ++i) calls += ", 0)";
  CHECK(formats::parse_expr(calls, "p").error().rule == "too-deep");
  const std::string ok = std::string(150, '(') + "1" + std::string(150, ')');
  CHECK(formats::parse_expr(ok, "p").ok());
}
