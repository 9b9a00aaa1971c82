#pragma once
// Each subcommand registers itself on the app and leaves its exit status in `status`
// (0 holds, 1 violation found, 2 bad usage or input, 3 inconclusive: docs/formats.md).
#include <CLI/CLI.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace syncbisim::cli {

struct Context {
  int status = 0;
};

// What registers one subcommand under the name it is given (cmd_<name>.cpp defines add_<name>;
// the name comes from kCommands, the one place that spells it).
using AddCommand = void(CLI::App& app, Context& ctx, const std::string& name);
AddCommand add_show, add_run, add_allocate, add_stats, add_check, add_demo, add_fuzz, add_shrink, add_prove, add_gen,
    add_replay, add_simulate, add_table2, add_deps;

// A subcommand's name and what registers it. The name is known before anything is registered, so
// that a run registers only the command it names (commands_to_register); `add` is given it.
struct Command {
  std::string_view name;
  AddCommand* add;
};

// Every subcommand, in the order `syncbisim --help` lists them.
inline constexpr std::array<Command, 14> kCommands{{{"show", add_show},
                                                    {"run", add_run},
                                                    {"allocate", add_allocate},
                                                    {"stats", add_stats},
                                                    {"check", add_check},
                                                    {"demo", add_demo},
                                                    {"fuzz", add_fuzz},
                                                    {"shrink", add_shrink},
                                                    {"prove", add_prove},
                                                    {"gen", add_gen},
                                                    {"replay", add_replay},
                                                    {"simulate", add_simulate},
                                                    {"table2", add_table2},
                                                    {"deps", add_deps}}};

// The commands a run with these arguments registers. Building every command's options is most of
// the time a short run takes (issue 41: `--version` and `show` of a small file should start in a
// few milliseconds), and a run uses one command: the one its first argument names, alone. With
// arguments that are all `--version`, none. Otherwise (no command named, `--help`, a misspelt
// name) every command, so that the help lists them and the error names the choices.
std::span<const Command> commands_to_register(int argc, const char* const* argv);


}  // namespace syncbisim::cli
