#pragma once
// Pieces of input inside messages (docs/formats.md "Messages"): whatever a file holds, a message
// is one line of printable, valid UTF-8 of a readable length. Every reader that echoes input
// goes through quote(); Diagnostic::to_string() passes the whole line through printable().
#include <cstddef>
#include <string>
#include <string_view>

namespace syncbisim::model {

// How many characters of a piece a message shows.
inline constexpr std::size_t kQuoteLimit = 40;

// `piece` in single quotes, each character printable: a control character, a line or paragraph
// separator, a bidirectional control, a BOM, a quote and a backslash are escaped ("\n", "\t",
// "\'", "\\", "\x01", "\u{2028}"), and so is every byte that starts no valid UTF-8 character
// ("\xEF"). Longer pieces are cut after `limit` characters and say their size:
// 'aaaa'... (2097152 bytes).
std::string quote(std::string_view piece, std::size_t limit = kQuoteLimit);

// `text` with the characters quote() escapes escaped the same way, except the quote and the
// backslash, which stay: printable text (such as quote()'s output) comes back unchanged.
std::string printable(std::string_view text);

// The UTF-8 character that starts at text[pos], or the one byte there if it starts none
// (an empty view at the end): what a reader shows as "unexpected X".
std::string_view char_at(std::string_view text, std::size_t pos);

}  // namespace syncbisim::model
