#pragma once
// A JSON document as every call of the public API returns it: printed as the command prints it
// (two spaces of indent, invalid UTF-8 replaced, a final newline), so that the two compare equal.
// Not installed.
#include <string>

#include <nlohmann/json.hpp>

namespace syncbisim::api::detail {

template <class Json>
std::string json_text(const Json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace syncbisim::api::detail
