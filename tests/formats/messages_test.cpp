// Messages and what the readers accept at the edges of the input (issue 18 class 5,
// docs/formats.md "Encoding" and "Messages"): one printable line of valid UTF-8, pieces of input
// quoted and cut; nothing may follow a JSON document; CR, LF and CRLF end lines alike; a UTF-8
// byte order mark is skipped.
#include <doctest/doctest.h>

#include <string>

#include "formats/expr_parser.h"
#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "model/quote.h"

using namespace syncbisim;

namespace {

constexpr const char* kSpec = R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [{"block": {"E0": ["I0"]}}]})";
constexpr const char* kText = "syncbisim spec/1\nengines E0 E1\nE0: I0\nloop A trip 2 {\n  E1: I1\n}\ndep I0 -> I1\n";

// What the edge prints, checked for the promise of docs/formats.md "Messages".
std::string message_of(const std::string& content, const std::string& name = "in") {
  const auto r = formats::load_program_text(content, name);
  REQUIRE_FALSE(r.ok());
  const auto line = r.error().to_string();
  INFO(line);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.find('\r') == std::string::npos);
  CHECK(model::printable(line) == line);
  CHECK(line.size() < 400);
  CHECK(line.find("json.exception") == std::string::npos);
  return line;
}

}  // namespace

TEST_CASE("quote: printable, escaped, cut, valid UTF-8") {
  CHECK(model::quote("I0") == "'I0'");
  CHECK(model::quote("a\nb") == "'a\\nb'");
  CHECK(model::quote(std::string("a\0b", 3)) == "'a\\x00b'");
  CHECK(model::quote("\x01\x7f") == "'\\x01\\x7F'");
  CHECK(model::quote("it's \\") == "'it\\'s \\\\'");
  CHECK(model::quote("\xEF") == "'\\xEF'");                           // a lone byte of a BOM
  CHECK(model::quote("\xC3\xA9t\xC3\xA9") == "'\xC3\xA9t\xC3\xA9'");  // valid UTF-8 stays
  CHECK(model::quote("\xE2\x80\xA8") == "'\\u{2028}'");               // a line separator is escaped
  CHECK(model::quote("\xED\xA0\x80") == "'\\xED\\xA0\\x80'");         // a surrogate is no character
  CHECK(model::quote("\xC0\xAF") == "'\\xC0\\xAF'");                  // nor an overlong form
  const std::string big(2 * 1024 * 1024, 'a');
  CHECK(model::quote(big) == "'" + std::string(model::kQuoteLimit, 'a') + "'... (2097152 bytes)");
  CHECK(model::quote(big, 3) == "'aaa'... (2097152 bytes)");
  CHECK(model::printable("a\tb\xFF") == "a\\tb\\xFF");
  CHECK(model::printable(model::quote("x\n'y'")) == model::quote("x\n'y'"));
  CHECK(model::char_at("\xC3\xA9x", 0) == "\xC3\xA9");
  CHECK(model::char_at("\xC3x", 0) == "\xC3");
  CHECK(model::char_at("x", 1).empty());
}

TEST_CASE("messages: no library text, a number past a double is bad-number at its pointer") {
  const std::string json =
      R"({"syncbisim": "spec/1", "engines": ["E0"], "program": [{"loop": "A", "trip": 1e400, "body": []}]})";
  const auto r = formats::load_program_text(json, "f.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rule == "bad-number");
  CHECK(r.error().place == "/program/0/trip");
  CHECK(r.error().message.find("'1e400'") != std::string::npos);
  message_of(json);
}

TEST_CASE("messages: control bytes, a newline in a name, a lone BOM byte are escaped") {
  CHECK(message_of("syncbisim spec/1\nengines E0\nE0: I0 \x01\x02\n").find("'\\x01'") != std::string::npos);
  const auto name = message_of(R"({"syncbisim": "spec/1", "engines": ["E\n0"], "program": []})");
  CHECK(name.find("'E\\n0'") != std::string::npos);
  const auto raw_nl = message_of("{\"syncbisim\": \"spec/1\", \"engines\": [\"E\n0\"], \"program\": []}");
  CHECK(raw_nl.find("[bad-json]") != std::string::npos);
  const auto bom = message_of("\xEFsyncbisim spec/1\nengines E0\n");
  CHECK(bom.find("'\\xEF'") != std::string::npos);
  message_of("\xEF{\"syncbisim\": \"spec/1\"}");
  message_of(std::string("{\"syncbisim\": \"spec/1\", \"engines\": [\"\xFF\xFE\"], \"program\": []}"));
  // A file name is input too.
  CHECK(message_of("nonsense", "dir/a\nb.sb").find("dir/a\\nb.sb: ") == 0);
}

TEST_CASE("messages: a 2 MB expression or name is cut to a readable length") {
  const std::string expr(2 * 1024 * 1024, '1');
  const auto e = formats::parse_expr(expr + "+", "/x");
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().to_string().size() < 300);
  CHECK(e.error().message.find("(2097153 bytes)") != std::string::npos);
  const std::string spaced = "r + " + std::string(2 * 1024 * 1024, ' ') + "\x01";
  const auto e2 = formats::parse_expr(spaced, "/x");
  REQUIRE_FALSE(e2.ok());
  CHECK(model::printable(e2.error().to_string()) == e2.error().to_string());
  CHECK(e2.error().to_string().size() < 300);
  const std::string text = "syncbisim impl/1\nengines E0\nsemaphores\nE0: [w := " + expr + "+]\n";
  CHECK(message_of(text).size() < 300);
  const std::string word(1024 * 1024, 'x');
  CHECK(message_of("syncbisim spec/1\nengines E0\n" + word + " I0\n").find("(1048576 bytes)") != std::string::npos);
}

TEST_CASE("messages: whitespace the printer adds does not count toward an expression's length") {
  std::string e = "r";
  while (e.size() < 4000) e += "+r";
  const auto parsed = formats::parse_expr(e, "/x");
  REQUIRE(parsed.ok());
  const auto printed = parsed->to_string();
  CHECK(printed.size() > 4096);
  const auto back = formats::parse_expr(printed, "/x");
  REQUIRE(back.ok());
  CHECK(*back == *parsed);
}

TEST_CASE("JSON: trailing content is refused, trailing whitespace is not") {
  CHECK(formats::load_program_text(std::string(kSpec) + " \n\t\r\n", "f").ok());
  const auto nul = formats::load_program_text(std::string(kSpec) + std::string("\0garbage", 8), "f");
  REQUIRE_FALSE(nul.ok());
  CHECK(nul.error().rule == "bad-json");
  const auto garbage = formats::load_program_text(std::string(kSpec) + "\nx", "f");
  REQUIRE_FALSE(garbage.ok());
  CHECK(garbage.error().rule == "bad-json");
  CHECK(garbage.error().place == "2:1");
  const auto second = formats::load_program_text(std::string(kSpec) + kSpec, "f");
  REQUIRE_FALSE(second.ok());
  CHECK(second.error().rule == "bad-json");
  message_of(std::string(kSpec) + std::string("\0\x01\xFF", 3));
}

TEST_CASE("text: CR, LF and CRLF end lines alike") {
  const auto lf = formats::load_program_text(kText, "lf.sb");
  REQUIRE(lf.ok());
  std::string cr = kText, crlf;
  for (auto& c : cr)
    if (c == '\n') c = '\r';
  for (char c : std::string(kText)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const auto from_cr = formats::load_program_text(cr, "cr.sb");
  INFO((from_cr ? std::string("ok") : from_cr.error().to_string()));
  REQUIRE(from_cr.ok());
  CHECK(from_cr->program == lf->program);
  const auto from_crlf = formats::load_program_text(crlf, "crlf.sb");
  REQUIRE(from_crlf.ok());
  CHECK(from_crlf->program == lf->program);
  // Places count lines the same way whatever ends them.
  const auto bad = formats::load_program_text("syncbisim spec/1\rengines E0\r\rE0: I0 ?\r", "cr.sb");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().place == "4:8");
  const auto bad_json = formats::load_program_text("{\"syncbisim\": \"spec/1\",\r\r  ?}", "cr.json");
  REQUIRE_FALSE(bad_json.ok());
  CHECK(bad_json.error().place == "3:3");
}

TEST_CASE("a UTF-8 byte order mark is skipped, JSON and text") {
  const auto json = formats::load_program_text(std::string("\xEF\xBB\xBF") + kSpec, "bom.json");
  INFO((json ? std::string("ok") : json.error().to_string()));
  REQUIRE(json.ok());
  CHECK(json->program == formats::load_program_text(kSpec, "f")->program);
  const auto text = formats::load_program_text(std::string("\xEF\xBB\xBF") + kText, "bom.sb");
  REQUIRE(text.ok());
  CHECK(text->program == formats::load_program_text(kText, "f")->program);
  CHECK(formats::read_json(std::string("\xEF\xBB\xBF") + kSpec).ok());
  CHECK(formats::read_text(std::string("\xEF\xBB\xBF") + kText).ok());
  // Only at the start: a BOM inside is an error like any stray byte.
  CHECK_FALSE(formats::load_program_text(std::string(kText) + "\xEF\xBB\xBF", "f").ok());
}
