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
        CHECK(shaped.eval(regs) == walked.eval(regs));
      }
  }
  // The shapes are what make eval() skip the walk; one is checked by its answer directly.
  auto counter = compile("r + 1");
  counter.find_shape();
  const std::uint64_t regs[2] = {41, 0};
  CHECK(counter.eval(regs) == 42);
}
