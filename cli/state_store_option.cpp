#include "cli/state_store_option.h"

namespace syncbisim::cli {

void add_state_store_option(CLI::App* cmd, checker::StateStore& store, const std::string& help) {
  // The option takes a name; the callback sets the store once the name passed the check.
  cmd->add_option_function<std::string>(
         "--state-store", [&store](const std::string& name) { store = checker::parse_state_store(name).value(); },
         "how the exhaustive search keeps its states: flat (the default, fastest) or tree (" + help +
             "); the same states, verdicts and traces")
      ->check(CLI::Validator(
          [](std::string& name) {
            return checker::parse_state_store(name) ? std::string() : checker::unknown_state_store(name);
          },
          ""));
}

}  // namespace syncbisim::cli
