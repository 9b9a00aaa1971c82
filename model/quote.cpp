// quote() and printable() (model/quote.h): the one way input is shown inside a message.
#include "model/quote.h"

#include <cstdint>
#include <cstdio>

namespace syncbisim::model {

namespace {

struct Decoded {
  std::uint32_t code = 0;
  std::size_t length = 0;  // 0: text[pos] starts no valid UTF-8 character
};

// RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
Decoded decode(std::string_view s, std::size_t pos) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[pos + k]); };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return {b0, 1};
  std::size_t n = 0;
  std::uint32_t code = 0, min = 0;
  if ((b0 & 0xE0) == 0xC0) n = 2, code = b0 & 0x1F, min = 0x80;
  else if ((b0 & 0xF0) == 0xE0) n = 3, code = b0 & 0x0F, min = 0x800;
  else if ((b0 & 0xF8) == 0xF0) n = 4, code = b0 & 0x07, min = 0x10000;
  else return {};
  if (pos + n > s.size()) return {};
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return {};
    code = (code << 6) | (byte(k) & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {};
  return {code, n};
}

// Characters that are valid but would break the line or mislead a reader of it.
bool needs_escape(std::uint32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0xFEFF || c == 0x200E ||
         c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

std::string hex_byte(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", b);
  return buf;
}

// Appends the escaped form of the character at s[pos]; returns how many bytes it took.
std::size_t append_char(std::string& out, std::string_view s, std::size_t pos, bool quoting) {
  const Decoded d = decode(s, pos);
  if (d.length == 0) {
    out += hex_byte(static_cast<unsigned char>(s[pos]));
    return 1;
  }
  const std::uint32_t c = d.code;
  if (quoting && (c == '\'' || c == '\\')) {
    out += '\\';
    out += static_cast<char>(c);
  } else if (c == '\n') {
    out += "\\n";
  } else if (c == '\r') {
    out += "\\r";
  } else if (c == '\t') {
    out += "\\t";
  } else if (c < 0x80 && needs_escape(c)) {
    out += hex_byte(static_cast<unsigned char>(c));
  } else if (needs_escape(c)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(c));
    out += buf;
  } else {
    out.append(s.substr(pos, d.length));
  }
  return d.length;
}

}  // namespace

std::string quote(std::string_view piece, std::size_t limit) {
  std::string out = "'";
  std::size_t pos = 0, shown = 0;
  while (pos < piece.size() && shown < limit) {
    pos += append_char(out, piece, pos, true);
    ++shown;
  }
  out += '\'';
  if (pos < piece.size()) out += "... (" + std::to_string(piece.size()) + " bytes)";
  return out;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) pos += append_char(out, text, pos, false);
  return out;
}

std::string_view char_at(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return {};
  const Decoded d = decode(text, pos);
  return text.substr(pos, d.length == 0 ? 1 : d.length);
}

}  // namespace syncbisim::model
