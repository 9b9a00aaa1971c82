#include "formats/access_parser.h"

#include <cctype>
#include <optional>
#include <string>

#include "formats/detail/name_chars.h"
#include "model/quote.h"

namespace syncbisim::formats {

namespace {

using model::IndexExpr;
using model::IndexOp;

// Parentheses nest at most this deep; an access is at most this long (not counting spaces), so
// that the quadratic cost of copying trees stays small (docs/formats.md "Bad input").
constexpr int kMaxAccessDepth = 100;
constexpr std::size_t kMaxAccessLength = 4096;


struct Failure {
  std::size_t at;
  std::string rule, message;
};

// Recursive descent:  sum     := product (('+' | '-') product)*
//                     product := unary (('*' | 'mod' | '//') unary)*
//                     unary   := '-' unary | INT | LOOP | '(' sum ')'
class AccessParser {
 public:
  explicit AccessParser(std::string_view s) : s_(s) {}

  model::Access run() {
    std::size_t visible = 0;
    for (char c : s_) visible += std::isspace(static_cast<unsigned char>(c)) ? 0 : 1;
    if (visible > kMaxAccessLength) fail("bad-access", "an access is longer than " + std::to_string(kMaxAccessLength) + " characters");
    model::Access a;
    skip_ws();
    if (at_end() || !detail::name_start(s_[pos_])) fail("bad-access", "expected a buffer name");
    while (!at_end() && detail::name_char(s_[pos_])) a.buffer += s_[pos_++];
    skip_ws();
    if (!eat('[')) fail("bad-access", "expected '[' after the buffer name " + model::quote(a.buffer));
    for (;;) {
      a.index.push_back(subscript());
      skip_ws();
      if (eat(']')) break;
      if (!eat(',')) fail("bad-access", "expected ',' or ']' in the subscripts, found " + found());
    }
    skip_ws();
    if (!at_end()) fail("bad-access", "unexpected " + found() + " after the access");
    return a;
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  void skip_ws() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (at_end() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  std::string found() const { return at_end() ? "the end" : model::quote(model::char_at(s_, pos_)); }
  [[noreturn]] void fail(const std::string& rule, const std::string& msg) { throw Failure{pos_, rule, msg}; }

  // The next character starts a subscript's end: ',' or ']' (or ':' for a range's low end).
  bool at_subscript_end() {
    skip_ws();
    return at_end() || s_[pos_] == ',' || s_[pos_] == ']';
  }

  model::Subscript subscript() {
    skip_ws();
    if (eat('?')) return model::AnyIndex{};
    std::optional<IndexExpr> lo;
    skip_ws();
    if (at_end() || s_[pos_] != ':') lo = sum(0);
    if (!eat(':')) {
      if (!lo) fail("bad-access", "expected an index");
      return model::IndexPoint{std::move(*lo)};
    }
    model::IndexRange r;
    r.lo = std::move(lo);
    if (!at_subscript_end()) r.hi = sum(0);
    return r;
  }

  bool keyword(std::string_view w) {
    skip_ws();
    if (s_.substr(pos_, w.size()) != w) return false;
    const std::size_t after = pos_ + w.size();
    if (after < s_.size() && detail::name_char(s_[after])) return false;
    pos_ = after;
    return true;
  }

  IndexExpr sum(int depth) {
    IndexExpr e = product(depth);
    for (;;) {
      skip_ws();
      if (eat('+')) e = IndexExpr::binary(IndexOp::Add, e, product(depth));
      else if (!at_end() && s_[pos_] == '-') {
        ++pos_;
        e = IndexExpr::binary(IndexOp::Sub, e, product(depth));
      } else {
        return e;
      }
    }
  }

  IndexExpr product(int depth) {
    IndexExpr e = unary(depth);
    for (;;) {
      skip_ws();
      const std::size_t at = pos_;
      if (s_.substr(pos_, 2) == "//") {
        pos_ += 2;
        e = divided(IndexOp::FloorDiv, e, unary(depth), at);
      } else if (keyword("mod")) {
        e = divided(IndexOp::Mod, e, unary(depth), at);
      } else if (eat('*')) {
        auto rhs = unary(depth);
        // Affine: one factor of a product is a constant (docs/footprints.md).
        if (!e.constant_value() && !rhs.constant_value()) {
          pos_ = at;
          fail("not-affine", "the index is not affine: both factors of '*' read a loop (" + e.to_string() + " * " +
                                 rhs.to_string() + ")");
        }
        e = IndexExpr::binary(IndexOp::Mul, e, rhs);
      } else {
        return e;
      }
    }
  }

  IndexExpr divided(IndexOp op, const IndexExpr& lhs, const IndexExpr& rhs, std::size_t at) {
    const auto k = rhs.constant_value();
    const char* name = op == IndexOp::Mod ? "mod" : "//";
    if (!k) {
      pos_ = at;
      fail("not-affine", std::string("'") + name + "' needs a constant divisor, not " + rhs.to_string());
    }
    if (*k <= 0) {
      pos_ = at;
      fail("bad-divisor", std::string("'") + name + "' needs a positive divisor, not " + std::to_string(*k));
    }
    return IndexExpr::binary(op, lhs, IndexExpr::constant(*k));
  }

  IndexExpr unary(int depth) {
    skip_ws();
    if (at_end()) fail("bad-access", "expected an index expression, found the end");
    const char c = s_[pos_];
    if (c == '-') {
      ++pos_;
      skip_ws();
      if (!at_end() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) return IndexExpr::constant(-integer());
      if (depth >= kMaxAccessDepth) fail("too-deep", "index expression nests deeper than " + std::to_string(kMaxAccessDepth));
      return IndexExpr::negate(unary(depth + 1));
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return IndexExpr::constant(integer());
    if (c == '(') {
      if (depth >= kMaxAccessDepth) fail("too-deep", "index expression nests deeper than " + std::to_string(kMaxAccessDepth));
      ++pos_;
      auto e = sum(depth + 1);
      if (!eat(')')) fail("bad-access", "expected ')', found " + found());
      return e;
    }
    if (detail::name_start(c)) {
      std::string name;
      // A loop named in an index has no '-' (it would read as minus), like a register.
      while (!at_end() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == '.'))
        name += s_[pos_++];
      return IndexExpr::loop(std::move(name));
    }
    fail("bad-access", "unexpected " + found() + " in an index expression");
  }

  std::int64_t integer() {
    std::int64_t v = 0;
    const std::size_t at = pos_;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      v = v * 10 + (s_[pos_++] - '0');
      if (v > (std::int64_t{1} << 40)) {
        pos_ = at;
        fail("bad-number", "an index constant is larger than 2^40");
      }
    }
    return v;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

// "line:col" moved `k` characters right; any other place as it is.
std::string shifted(const std::string& place, std::size_t k) {
  const auto colon = place.find(':');
  if (colon == std::string::npos || place.empty() || place[0] == '/') return place;
  try {
    return place.substr(0, colon + 1) + std::to_string(std::stoul(place.substr(colon + 1)) + k);
  } catch (...) {
    return place;
  }
}

}  // namespace

model::Result<model::Access> parse_access(std::string_view text, const std::string& place) {
  try {
    auto a = AccessParser(text).run();
    a.where = place;
    return a;
  } catch (const Failure& f) {
    return model::make_error(shifted(place, f.at), f.rule, "in the access " + model::quote(std::string(text)) + ": " + f.message);
  }
}

}  // namespace syncbisim::formats
