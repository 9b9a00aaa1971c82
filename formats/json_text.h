#pragma once
// A JSON document as the tool writes it, on stdout, in a file or from a call of the public API:
// two spaces of indent, invalid UTF-8 replaced (docs/formats.md "Messages"), a final newline.
// One place, so that the API's documents and the command's output compare equal.
#include <string>

#include <nlohmann/json.hpp>

namespace syncbisim::formats {

template <class Json>
std::string json_text(const Json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace syncbisim::formats
