// Register expressions: the shapes CompiledExpr::find_shape() recognizes evaluate as walking
// their nodes does, on every register value tried.
#include <doctest/doctest.h>

#include <string>

#include "formats/expr_parser.h"
#include "semantics/compiled_program.h"

using namespace syncbisim;

namespace {

// Registers r (id 0) and q (id 1).
semantics::CompiledExpr compile(const std::string& text) {
  const auto e = formats::parse_expr(text, "test");
  REQUIRE(e.ok());
  semantics::CompiledExpr ce;
  for (const auto& n : e->nodes)
    ce.nodes.push_back({n.op, n.value, static_cast<semantics::RegId>(n.reg == "q" ? 1 : 0), n.lhs, n.rhs});
  return ce;
}

// The value, or UINT64_MAX standing for "passes 2^64 - 1" (eval() returned false).
std::uint64_t value_of(const semantics::CompiledExpr& e, const std::uint64_t* regs) {
  std::uint64_t v = 0;
  return e.eval(regs, v) ? v : UINT64_MAX;
}

}  // namespace

TEST_CASE("expressions evaluate the same with and without their recognized shape") {
  for (const std::string text : {"7", "r", "r + 1", "1 + r", "q + 3", "r + q", "r - 1", "2 * r + 1",
                                 "isgt(r, 1) * (2 * (r - 1))", "r + 0", "0"}) {
    CAPTURE(text);
    const auto walked = compile(text);
    auto shaped = walked;
    shaped.find_shape();
    for (std::uint64_t r : {0ULL, 1ULL, 2ULL, 5ULL, 1ULL << 40})
      for (std::uint64_t q : {0ULL, 3ULL}) {
        const std::uint64_t regs[2] = {r, q};
        CHECK(value_of(shaped, regs) == value_of(walked, regs));
      }
  }
  // The shapes are what make eval() skip the walk; one is checked by its answer directly.
  auto counter = compile("r + 1");
  counter.find_shape();
  const std::uint64_t regs[2] = {41, 0};
  CHECK(value_of(counter, regs) == 42);
}

TEST_CASE("compiled expressions are checked: a value past 2^64 - 1 is reported, shaped or walked") {
  const std::uint64_t big[2] = {UINT64_MAX, 2};
  const std::uint64_t one[2] = {1, 0};
  std::uint64_t v = 0;
  // r + c is a recognized shape: checked without the walk.
  auto counter = compile("r + 1");
  counter.find_shape();
  CHECK_FALSE(counter.eval(big, v));
  REQUIRE(counter.eval(one, v));
  CHECK(v == 2);
  // Walked: the product of the reproducer passes 2^64 - 1 in its first multiplication.
  const auto product = compile("r * 4294967296 * 4294967296 + r");
  CHECK_FALSE(product.eval(one, v));
  const std::uint64_t zero[2] = {0, 0};
  REQUIRE(product.eval(zero, v));
  CHECK(v == 0);
  // 2^64 - 1 itself is a value; one more is not.
  const auto top = compile("18446744073709551615 + q - q");
  REQUIRE(top.eval(zero, v));
  CHECK(v == UINT64_MAX);
  CHECK_FALSE(compile("18446744073709551615 + 1").eval(zero, v));
  CHECK_FALSE(compile("q * 9223372036854775808").eval(big, v));
}
