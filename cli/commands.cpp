#include "cli/commands.h"

#include <algorithm>
#include <string_view>

namespace syncbisim::cli {

std::span<const Command> commands_to_register(int argc, const char* const* argv) {
  const std::span<const Command> every{kCommands};
  if (argc < 2) return every;
  const bool only_version =
      std::all_of(argv + 1, argv + argc, [](const char* a) { return std::string_view(a) == "--version"; });
  if (only_version) return {};
  const std::string_view first = argv[1];
  const auto named = std::find_if(every.begin(), every.end(), [&](const Command& c) { return c.name == first; });
  if (named == every.end()) return every;
  return every.subspan(static_cast<std::size_t>(named - every.begin()), 1);
}

}  // namespace syncbisim::cli
