#include "model/result.h"

#include "model/quote.h"

namespace syncbisim::model {

// One printable line whatever the pieces hold (a file name with a newline, a message a reader
// built from raw input): docs/formats.md "Messages".
std::string Diagnostic::to_string() const {
  std::string out;
  if (!file.empty()) out += printable(file) + ": ";
  // A JSON pointer holds keys of the input: a 2 MB key would make a place no one reads.
  constexpr std::size_t kMaxPlace = 200;
  if (!place.empty()) out += printable(place.size() > kMaxPlace ? place.substr(0, kMaxPlace) + "..." : place) + ": ";
  out += printable(message);
  if (!rule.empty()) out += " [" + printable(rule) + "]";
  return out;
}

Diagnostic make_error(std::string place, std::string rule, std::string message) {
  return Diagnostic{"", std::move(place), std::move(rule), std::move(message)};
}

}  // namespace syncbisim::model
