#include "formats/detail/json_check.h"

#include <nlohmann/json.hpp>

#include <set>
#include <vector>

#include "model/quote.h"

namespace syncbisim::formats::detail {

std::string line_col(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    // CR, LF and CRLF all end a line (docs/formats.md "Encoding, line endings, trailing content").
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

namespace {

// Calls on_bracket(i, c) for every bracket of text[0, upto) outside strings, stopping when it
// returns false. Works on malformed text too: the callers look for where a bracket went wrong.
template <class F>
void for_each_bracket(std::string_view text, std::size_t upto, F on_bracket) {
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size() && i < upto; ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if ((c == '[' || c == '{' || c == ']' || c == '}') && !on_bracket(i, c)) return;
  }
}

// The first bracket that goes past `max_depth` levels of [ and {.
std::optional<std::size_t> too_deep_at(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  std::optional<std::size_t> at;
  for_each_bracket(text, text.size(), [&](std::size_t i, char c) {
    if (c == '[' || c == '{') {
      if (++depth > max_depth) at = i;
    } else if (depth > 0) {
      --depth;
    }
    return !at;
  });
  return at;
}

// The innermost '[' or '{' still open at byte `upto` (outside strings), if any: where a person
// looks for the bracket they forgot to close.
std::optional<std::size_t> innermost_open(std::string_view text, std::size_t upto) {
  std::vector<std::size_t> open;
  for_each_bracket(text, upto, [&](std::size_t i, char c) {
    if (c == '[' || c == '{') open.push_back(i);
    else if (!open.empty()) open.pop_back();
    return true;
  });
  if (open.empty()) return std::nullopt;
  return open.back();
}

// nlohmann's parse error text without the library's prefix ("[json.exception.parse_error.101]
// parse error at line 1, column 2: "), its token ("last read: '...'", raw bytes of any length)
// quoted like every piece of input in a message.
std::string library_message(std::string what) {
  if (const auto bracket = what.find("] "); bracket != std::string::npos)
    if (const auto colon = what.find(": ", bracket); colon != std::string::npos) what = what.substr(colon + 2);
  const std::string marker = "; last read: '";
  const auto lr = what.find(marker);
  if (lr == std::string::npos) return what;
  const auto start = lr + marker.size();
  // The token ends where the text ends, or before "; expected X" with X one of the parser's
  // token names: the token may hold "'; expected " itself (the fuzzer found that).
  std::size_t end = what.size() - 1;
  for (const char* name : {"end of input", "'[', '{', or a literal", "'}'", "']'", "':'", "','", "'['", "'{'",
                           "string literal", "number literal", "true literal", "false literal", "null literal",
                           "<parse error>", "<uninitialized>", "unknown token"}) {
    const std::string suffix = std::string("'; expected ") + name;
    if (what.size() >= start + suffix.size() && what.compare(what.size() - suffix.size(), suffix.size(), suffix) == 0) {
      end = what.size() - suffix.size();
      break;
    }
  }
  if (end < start) return what.substr(0, lr);
  return what.substr(0, lr) + "; last read: " + model::quote(what.substr(start, end - start)) + what.substr(end + 1);
}

// SAX handler that tracks the JSON pointer of the current value and rejects duplicate keys
// (nlohmann would silently keep one of them; a strict reader must not guess).
class StrictSax : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit StrictSax(std::string_view text) : text_(text) {}
  std::optional<model::Diagnostic> error;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t& raw) override {
    value();
    // A whole number past 64 bits would come back as a double with other digits (1e+29):
    // refused, wherever it stands (docs/formats.md "JSON").
    if (raw.find_first_of(".eE") == std::string::npos) {
      error = model::make_error(current_pointer(), "bad-number",
                                "the whole number " + model::quote(raw) +
                                    " does not fit in 64 bits (write it as a string to keep every digit)");
      return false;
    }
    return true;
  }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    value();
    frames_.push_back(Frame{true, 0, {}, {}});
    return true;
  }
  bool key(string_t& k) override {
    auto& f = frames_.back();
    if (!f.keys.insert(k).second) {
      error = model::make_error(container_pointer() + "/" + pointer_token(k), "duplicate-key",
                                "key " + model::quote(k) + " appears twice in one object");
      return false;
    }
    f.key = k;
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    value();
    frames_.push_back(Frame{false, 0, {}, {}});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    const std::size_t at = position > 0 ? position - 1 : 0;
    if (ex.id == 406) {  // out_of_range.406: a number past what a double holds (1e400)
      value();
      std::string what = ex.what();
      const auto open = what.find('\''), close = what.rfind('\'');
      const std::string number = open < close ? what.substr(open + 1, close - open - 1) : "";
      error =
          model::make_error(current_pointer(), "bad-number", "the number " + model::quote(number) + " is out of range");
      return false;
    }
    std::string what = library_message(ex.what());
    if (what.find("expected end of input") != std::string::npos) {
      error = model::make_error(line_col(text_, at), "bad-json",
                                "unexpected " + model::quote(model::char_at(text_, at)) +
                                    " after the JSON document (only whitespace may follow it)");
      return false;
    }
    // A missing '}' or ']' shows only where the text ends or the next bracket does not fit:
    // name the bracket that was left open, which is what needs the fix.
    if (what.find("end of input") != std::string::npos || what.find("expected '}'") != std::string::npos ||
        what.find("expected ']'") != std::string::npos)
      if (const auto open = innermost_open(text_, at))
        what += std::string("; the '") + text_[*open] + "' opened at " + line_col(text_, *open) + " is not closed";
    error = model::make_error(line_col(text_, at), "bad-json", "not valid JSON: " + what);
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::size_t index = 0;  // next array index
    std::string key;        // current object key
    std::set<std::string> keys;
  };
  // Called when a value starts: advances the array index of the enclosing array.
  bool value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }
  // The pointer of the value that started last.
  std::string current_pointer() const {
    std::string out;
    for (const auto& f : frames_)
      out += "/" + (f.object ? pointer_token(f.key) : std::to_string(f.index > 0 ? f.index - 1 : 0));
    return out.empty() ? "/" : out;
  }
  // The pointer of the innermost open container: each enclosing frame contributes the key or
  // index that leads to its child.
  std::string container_pointer() const {
    std::string out;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      const auto& f = frames_[i];
      out += "/" + (f.object ? pointer_token(f.key) : std::to_string(f.index > 0 ? f.index - 1 : 0));
    }
    return out;
  }

  std::string_view text_;
  std::vector<Frame> frames_;
};

}  // namespace

std::optional<model::Diagnostic> check_json(std::string_view text, std::size_t max_depth) {
  // nlohmann's lexer takes a NUL byte for the end of the input and would accept "{}\0garbage".
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    return model::make_error(line_col(text, nul), "bad-json",
                             "a NUL byte: JSON text has none (only whitespace may follow the document)");
  if (const auto at = too_deep_at(text, max_depth))
    return model::make_error(line_col(text, *at), "too-deep",
                             "JSON nests deeper than " + std::to_string(max_depth) + " levels");
  StrictSax sax(text);
  const bool ok = nlohmann::json::sax_parse(text.begin(), text.end(), &sax);
  if (!ok) {
    if (sax.error) return sax.error;
    return model::make_error("1:1", "bad-json", "not valid JSON");
  }
  return std::nullopt;
}

}  // namespace syncbisim::formats::detail
