#include "cli/command_setup.h"

#include <filesystem>
#include <system_error>

#include "cli/inputs.h"

namespace syncbisim::cli {

void add_spec_argument(CLI::App* cmd, std::string& spec) {
  cmd->add_option("SPEC", spec, "spec program (JSON or text)")->required()->check(CLI::ExistingFile);
}

void add_pair_arguments(CLI::App* cmd, std::string& spec, std::string& impl) {
  add_spec_argument(cmd, spec);
  cmd->add_option("IMPL", impl, "impl program (JSON or text)")->required()->check(CLI::ExistingFile);
}

void add_json_flag(CLI::App* cmd, bool& json) { cmd->add_flag("--json", json, "print one JSON document"); }

int create_out_directory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return input_error(model::Diagnostic{dir, "", "io", "cannot create the directory: " + ec.message()});
  return 0;
}

}  // namespace syncbisim::cli
