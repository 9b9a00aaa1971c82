#include "cli/number_options.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace syncbisim::cli {

namespace {

// The whole numbers a UINT option holds, as written: no sign, at most 2^64 - 1. A size with
// its unit (512M) is left to its own transform, which refuses an overflow itself.
std::string natural_error(const std::string& s) {
  constexpr const char* kMax = "18446744073709551615";
  // An empty value CLI11 would take as 0 (no limit, for the limits).
  if (s.empty() || s[0] == '-' || s[0] == '+') return "must be a whole number from 0 to " + std::string(kMax);
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits != s.size()) return {};            // not all digits: CLI11's conversion (or the size transform) decides
  const auto first = s.find_first_not_of('0');  // leading zeros count for nothing ("007")
  const std::string d = first == std::string::npos ? "0" : s.substr(first);
  if (d.size() > 20 || (d.size() == 20 && d > kMax)) return "is past " + std::string(kMax) + ", the largest it holds";
  return {};
}

std::string seconds_error(const std::string& s) {
  if (s.empty()) return "must be a number of seconds, 0 or more";  // CLI11 would take it as 0
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v) && v >= 0) return {};
  } catch (const std::out_of_range&) {  // past what a double holds (1e400): refused below
  } catch (const std::exception&) {     // not a number: CLI11's conversion says so
    return {};
  }
  return "must be a number of seconds, 0 or more";
}

void refuse_in(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();
    if (type.rfind("UINT", 0) == 0) o->check(CLI::Validator(natural_error, "", "natural"));
    else if (type.rfind("FLOAT", 0) == 0) o->check(CLI::Validator(seconds_error, "", "seconds"));
  }
  for (CLI::App* sub : app.get_subcommands({})) refuse_in(*sub);
}

}  // namespace

void refuse_wrapped_numbers(CLI::App& app) { refuse_in(app); }

}  // namespace syncbisim::cli
