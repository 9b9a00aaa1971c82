#include "model/result.h"

namespace syncbisim::model {

std::string Diagnostic::to_string() const {
  std::string out;
  if (!file.empty()) out += file + ": ";
  if (!place.empty()) out += place + ": ";
  out += message;
  if (!rule.empty()) out += " [" + rule + "]";
  return out;
}

Diagnostic make_error(std::string place, std::string rule, std::string message) {
  return Diagnostic{"", std::move(place), std::move(rule), std::move(message)};
}

}  // namespace syncbisim::model
