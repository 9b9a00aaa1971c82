#pragma once
// Text a command prints that carries what others wrote (an external allocator's reason, its
// output's first line): every line made printable as messages are (docs/formats.md "Messages"),
// the line breaks kept. A terminal never gets a raw control byte or invalid UTF-8 from us, so no
// escape sequence in an allocator's stderr can act on it (issue 43).
#include <string>
#include <string_view>

#include "model/quote.h"

namespace syncbisim::cli {

inline std::string printable_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    const auto line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    out += model::printable(line);
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace syncbisim::cli
