#include "formats/detail/json_check.h"

#include <nlohmann/json.hpp>

#include <set>
#include <vector>

namespace syncbisim::formats::detail {

std::string line_col(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
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
  bool number_float(number_float_t, const string_t&) override { return value(); }
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
                                "key '" + k + "' appears twice in one object");
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
    // ex.what() reads "[json.exception.parse_error.101] parse error at line 1, column 2: ...";
    // keep the part after the position, which says what was expected.
    std::string what = ex.what();
    if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    const std::size_t at = position > 0 ? position - 1 : 0;
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
