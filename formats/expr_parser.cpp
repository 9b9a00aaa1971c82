#include "formats/expr_parser.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "formats/detail/name_chars.h"
#include "model/quote.h"

namespace syncbisim::formats {

namespace {

using model::Expr;
using model::ExprOp;

// Parentheses and isgt(...) calls nest at most this deep: recursion is bounded before it starts
// (docs/formats.md "Bad input": no crash on any input).
constexpr int kMaxExprDepth = 200;
// Expr::binary copies its operands, so very long expressions would cost quadratic time; no
// allocation needs more than a handful of operators (paper §6.1: O(D) per issue). Whitespace
// does not count: Expr::to_string() adds spaces, and what it prints must parse back.
constexpr std::size_t kMaxExprLength = 4096;

std::size_t visible_length(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += std::isspace(static_cast<unsigned char>(c)) ? 0 : 1;
  return n;
}


// Recursive descent over:  sum := product (('+'|'-') product)*
//                          product := atom ('*' atom)*
//                          atom := INT | REG | 'isgt' '(' sum ',' sum ')' | '(' sum ')'
class ExprParser {
 public:
  ExprParser(std::string_view text, const std::string& place) : s_(text), place_(place) {}

  model::Result<Expr> run() {
    if (visible_length(s_) > kMaxExprLength)
      return fail("expression is longer than " + std::to_string(kMaxExprLength) + " characters (not counting spaces)",
                  "bad-expr");
    skip_ws();
    if (at_end()) return fail("empty expression", "bad-expr");
    auto e = sum(0);
    if (!e) return *error_;
    skip_ws();
    if (!at_end()) return fail("unexpected " + model::quote(model::char_at(s_, pos_)), "bad-expr");
    return std::move(*e);
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  void skip_ws() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (!at_end() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  model::Diagnostic fail(const std::string& msg, const std::string& rule) {
    // The expression is quoted (cut to a readable length: it may be megabytes) and the offset
    // says where in it the trouble is.
    error_ = model::make_error(
        place_, rule, "bad expression " + model::quote(s_) + ": " + msg + " (at offset " + std::to_string(pos_) + ")");
    return *error_;
  }

  std::optional<Expr> sum(int depth) {
    auto lhs = product(depth);
    if (!lhs) return std::nullopt;
    for (;;) {
      skip_ws();
      if (at_end() || (s_[pos_] != '+' && s_[pos_] != '-')) return lhs;
      const ExprOp op = s_[pos_] == '+' ? ExprOp::Add : ExprOp::Sub;
      ++pos_;
      auto rhs = product(depth);
      if (!rhs) return std::nullopt;
      lhs = Expr::binary(op, *lhs, *rhs);
    }
  }

  std::optional<Expr> product(int depth) {
    auto lhs = atom(depth);
    if (!lhs) return std::nullopt;
    while (eat('*')) {
      auto rhs = atom(depth);
      if (!rhs) return std::nullopt;
      lhs = Expr::binary(ExprOp::Mul, *lhs, *rhs);
    }
    return lhs;
  }

  std::optional<Expr> atom(int depth) {
    skip_ws();
    if (at_end()) {
      fail("expected a number, a register, isgt(...) or '('", "bad-expr");
      return std::nullopt;
    }
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::uint64_t v = 0;
      while (!at_end() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        const auto d = static_cast<std::uint64_t>(s_[pos_] - '0');
        if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) {
          fail("integer does not fit in 64 bits", "bad-expr");
          return std::nullopt;
        }
        v = v * 10 + d;
        ++pos_;
      }
      if (!at_end() && detail::register_char(s_[pos_])) {
        fail("a number runs into a name", "bad-expr");
        return std::nullopt;
      }
      return Expr::constant(v);
    }
    if (c == '(') {
      if (depth >= kMaxExprDepth) {
        fail("parentheses nest deeper than " + std::to_string(kMaxExprDepth), "too-deep");
        return std::nullopt;
      }
      ++pos_;
      auto inner = sum(depth + 1);
      if (!inner) return std::nullopt;
      if (!eat(')')) {
        fail("expected ')'", "bad-expr");
        return std::nullopt;
      }
      return inner;
    }
    if (detail::name_start(c)) {
      const std::size_t start = pos_;
      while (!at_end() && detail::register_char(s_[pos_])) ++pos_;
      std::string name(s_.substr(start, pos_ - start));
      skip_ws();
      if (name == "isgt" && !at_end() && s_[pos_] == '(') return call(depth);
      return Expr::reg(std::move(name));
    }
    fail(c == '-' ? "no negative numbers: values are naturals (docs/semantics.md §4)"
                  : "unexpected " + model::quote(model::char_at(s_, pos_)),
         "bad-expr");
    return std::nullopt;
  }

  // isgt(a, b): 1 if a > b else 0 (the paper's mask, §5.4).
  std::optional<Expr> call(int depth) {
    if (depth >= kMaxExprDepth) {
      fail("isgt calls nest deeper than " + std::to_string(kMaxExprDepth), "too-deep");
      return std::nullopt;
    }
    ++pos_;  // '('
    auto a = sum(depth + 1);
    if (!a) return std::nullopt;
    if (!eat(',')) {
      fail("isgt takes two arguments: expected ','", "bad-expr");
      return std::nullopt;
    }
    auto b = sum(depth + 1);
    if (!b) return std::nullopt;
    if (!eat(')')) {
      fail("expected ')' after the arguments of isgt", "bad-expr");
      return std::nullopt;
    }
    return Expr::binary(ExprOp::IsGt, *a, *b);
  }

  std::string_view s_;
  const std::string& place_;
  std::size_t pos_ = 0;
  std::optional<model::Diagnostic> error_;
};

}  // namespace

model::Result<model::Expr> parse_expr(std::string_view text, const std::string& place) {
  return ExprParser(text, place).run();
}

}  // namespace syncbisim::formats
