#pragma once
// Register-operation expressions (docs/semantics.md §4): naturals, registers, +, - (truncated at 0),
// *, and isgt(a, b). Stored as a flat node array (children before parents, root last) so that
// an Expr is a plain value: copyable, comparable, no owning pointers.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace syncbisim::model {

enum class ExprOp : std::uint8_t { Const, Reg, Add, Sub, Mul, IsGt };

struct ExprNode {
  ExprOp op = ExprOp::Const;
  std::uint64_t value = 0;         // Const
  std::string reg;                 // Reg: register name (per engine: same name on two engines = two registers)
  std::uint32_t lhs = 0, rhs = 0;  // operands (indices into nodes), for the binary ops
  bool operator==(const ExprNode&) const = default;
};

struct Expr {
  std::vector<ExprNode> nodes;  // root is nodes.back(); never empty once built

  static Expr constant(std::uint64_t v);
  static Expr reg(std::string name);
  // Combines two expressions under a binary operator (Add, Sub, Mul, IsGt).
  static Expr binary(ExprOp op, const Expr& a, const Expr& b);

  // ALU cost: the number of operators (docs/semantics.md §4).
  std::uint32_t alu_cost() const;
  // Registers read, in first-use order, without repeats.
  std::vector<std::string> registers() const;
  // Evaluate with natural-number arithmetic; `read` supplies register values. Empty when some
  // operator's value passes 2^64 - 1 (apply_op): never a wrapped number.
  std::optional<std::uint64_t> eval(const std::function<std::uint64_t(const std::string&)>& read) const;
  // Canonical text: infix with the usual precedence, isgt(a, b) as a call.
  std::string to_string() const;

  bool is_constant() const { return nodes.size() == 1 && nodes[0].op == ExprOp::Const; }
  bool operator==(const Expr&) const = default;
};

// How tightly an operator binds in the canonical text: + and - 1, * 2, atoms and calls 3.
// Expr::to_string and the allocator's value trees print with it.
int precedence(ExprOp op);

// Natural-number operations shared by every evaluator (the paper's ℕ arithmetic, paper §4).
// An operator on two values, checked: the result is written to `out` and true returned, or false
// when the natural result passes 2^64 - 1, the largest value the tool represents (`out` is then
// unspecified). Nothing wraps: a caller that gets false reports the overflow (docs/semantics.md
// "Widths"). Inline: the implementation system evaluates one per register operation, on the
// checker's hot path; the builtins compile to an add or a multiply and a flag test.
inline bool apply_op(ExprOp op, std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  switch (op) {
    case ExprOp::Add: return !__builtin_add_overflow(a, b, &out);
    case ExprOp::Sub: out = a > b ? a - b : 0; return true;  // truncated, as on the paper's naturals
    case ExprOp::Mul: return !__builtin_mul_overflow(a, b, &out);
    case ExprOp::IsGt: out = a > b ? 1 : 0; return true;
    default: out = 0; return true;
  }
}

}  // namespace syncbisim::model
