#pragma once
// The characters of names (docs/formats.md "Names"), for the text reader and the expression and
// access parsers alike.

#include <cctype>

namespace syncbisim::formats::detail {

inline bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// Names may hold '-'; a '-' right before '>' ends the name, so that "dep I0->I1" reads as I0 -> I1.
inline bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
}

// A register's name has no '-': an expression reads "r-1" as r minus 1.
inline bool register_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

}  // namespace syncbisim::formats::detail
