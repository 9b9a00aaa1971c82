#pragma once
// What the subcommands set up alike: the command itself (its arguments in a struct that outlives
// the parse, its run() giving the exit status), the SPEC and IMPL arguments, --json, and the
// directory --out names. One place, so that every command that takes them gives them the same
// names and help.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <utility>

#include "cli/commands.h"

namespace syncbisim::cli {

// A subcommand of `app` whose options fill an Args. CLI11 writes into it during the parse and the
// callback reads it afterwards, so the callback owns it; `run(args)` is the exit status.
template <class Args, class Run>
std::pair<CLI::App*, std::shared_ptr<Args>> add_command(CLI::App& app, Context& ctx, const std::string& name,
                                                        const std::string& description, Run run) {
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(name, description);
  cmd->callback([args, &ctx, run] { ctx.status = run(*args); });
  return {cmd, args};
}

// SPEC, a file that must exist.
void add_spec_argument(CLI::App* cmd, std::string& spec);
// SPEC and IMPL, files that must exist.
void add_pair_arguments(CLI::App* cmd, std::string& spec, std::string& impl);
// --json.
void add_json_flag(CLI::App* cmd, bool& json);

// Creates `dir` (and its parents) for the files a command writes there: 0, or 2 with the message
// printed (input_error).
int create_out_directory(const std::string& dir);

}  // namespace syncbisim::cli
