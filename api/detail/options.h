#pragma once
// Options the commands take as text (--trips, --costs), parsed by the same library calls the
// commands use, their errors thrown as syncbisim::Error. Defined in api/simulate.cpp.
#include <cstdint>
#include <map>
#include <string>

#include "timing/cost_table.h"

namespace syncbisim::api::detail {

// "A=3,B=4,C=else" (allocator::parse_trips; rule "bad-trips"); "" gives no trips.
std::map<std::string, std::uint32_t> trips(const std::string& text);
// A cost table from a file or from its JSON text, at most one of the two (rule "usage"); neither:
// the built-in default table.
timing::CostTable cost_table(const std::string& file, const std::string& json);

}  // namespace syncbisim::api::detail
