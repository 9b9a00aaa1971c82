#include "oracles.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "model/quote.h"

namespace syncbisim::fuzz_readers {

namespace {

// The longest message line we accept: a few quoted pieces of kQuoteLimit characters each.
constexpr std::size_t kMaxMessage = 1000;

[[noreturn]] void broken(const char* promise, const std::string& detail) {
  std::fprintf(stderr, "broken promise: %s\n%s\n", promise, model::printable(detail).c_str());
  std::abort();
}

}  // namespace

void check_message(const model::Diagnostic& d) {
  const std::string line = d.to_string();
  if (d.rule.empty()) broken("a diagnostic names its rule", line);
  if (d.place.empty() && d.rule != "io") broken("a diagnostic has a place", line);
  if (line.size() > kMaxMessage) broken("a message is cut to a readable length", line.substr(0, 300));
  if (model::printable(line) != line) broken("a message is one printable line of valid UTF-8", line);
}

void check_round_trips(const model::Program& p) {
  if (!model::ProgramIndex::build(p).ok()) broken("a loaded program validates", formats::write_json(p));
  const auto json = formats::write_json(p);
  const auto from_json = formats::read_json(json);
  if (!from_json.ok()) broken("write_json's output reads back", from_json.error().to_string() + "\n" + json);
  if (!(*from_json == p)) broken("read_json(write_json(p)) == p", json);
  const auto text = formats::write_text(p);
  const auto from_text = formats::read_text(text);
  if (!from_text.ok()) broken("write_text's output reads back", from_text.error().to_string() + "\n" + text);
  if (!(*from_text == p)) broken("read_text(write_text(p)) == p", text);
}

void check_load(std::string_view input) {
  auto r = formats::load_program_text(input, "fuzz.in");
  if (r.ok()) check_round_trips(r->program);
  else check_message(r.error());
}

void check_read(const model::Result<model::Program>& r, std::string_view input) {
  if (!r.ok()) {
    check_message(r.error());
    return;
  }
  auto ix = model::ProgramIndex::build(*r);
  if (!ix.ok()) check_message(ix.error());
  else check_round_trips(*r);
  check_load(input);
}

}  // namespace syncbisim::fuzz_readers
