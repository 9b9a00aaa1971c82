#pragma once
// Parses register-operation expressions: integers, register names, + - * with the usual
// precedence (left-associative), parentheses, isgt(a, b). Shared by the JSON and text readers.
#include <string_view>

#include "model/expr.h"
#include "model/result.h"

namespace syncbisim::formats {

// `place` is used in errors (a JSON pointer, or "line:col" of the expression's first character;
// the text reader adjusts the column itself).
model::Result<model::Expr> parse_expr(std::string_view text, const std::string& place);

}  // namespace syncbisim::formats
