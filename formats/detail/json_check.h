#pragma once
// Checks raw JSON text before any DOM is built: nesting depth (a byte scan, so a 200,000-deep
// array cannot overflow the stack), then syntax and duplicate keys (nlohmann's SAX parser, which
// is iterative). docs/formats.md "Bad input": every malformed file gets one clean error.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "model/result.h"

namespace syncbisim::formats::detail {

inline constexpr std::size_t kMaxJsonDepth = 200;

// nullopt if the text is well-formed JSON, at most `max_depth` deep, without duplicate keys.
std::optional<model::Diagnostic> check_json(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

// "line:col" (1-based) of a byte offset.
std::string line_col(std::string_view text, std::size_t offset);

// One JSON pointer reference token, escaped (RFC 6901: '~' -> "~0", '/' -> "~1").
std::string pointer_token(const std::string& key);

}  // namespace syncbisim::formats::detail
