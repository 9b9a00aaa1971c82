#include "cli/number_options.h"

#include <charconv>
#include <cmath>
#include <cstdint>
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
  if (s.find_first_not_of("0123456789") != std::string::npos) return {};  // CLI11 (or the size transform) decides
  std::uint64_t value = 0;
  if (std::from_chars(s.data(), s.data() + s.size(), value).ec == std::errc::result_out_of_range)
    return "is past " + std::string(kMax) + ", the largest it holds";
  return {};
}

// A number as std::stod reads it whole; `number` false when it is not one (CLI11's
// own conversion then says so). Past what a double holds (1e400) reads as infinite.
struct Read {
  bool number = false;
  double value = 0;
};
Read read_number(const std::string& s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    return used == s.size() ? Read{true, v} : Read{};
  } catch (const std::out_of_range&) {
    return {true, HUGE_VAL};
  } catch (const std::exception&) {
    return {};
  }
}

std::string finite_error(const std::string& s) {
  const Read r = read_number(s);
  return r.number && !std::isfinite(r.value) ? "must be a finite number" : "";
}

std::string seconds_error(const std::string& s) {
  if (s.empty()) return "must be a number of seconds, 0 or more";  // CLI11 would take it as 0
  const Read r = read_number(s);
  if (!r.number || (std::isfinite(r.value) && r.value >= 0)) return {};  // not a number: CLI11 says so
  return "must be a number of seconds, 0 or more";
}

}  // namespace

CLI::Validator seconds() { return CLI::Validator(seconds_error, "", "seconds"); }

void refuse_wrapped_numbers(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();
    if (type.rfind("UINT", 0) == 0) o->check(CLI::Validator(natural_error, "", "natural"));
    else if (type.rfind("FLOAT", 0) == 0) o->check(CLI::Validator(finite_error, "", "finite"));
  }
  for (CLI::App* sub : app.get_subcommands({})) refuse_wrapped_numbers(*sub);
}

}  // namespace syncbisim::cli
