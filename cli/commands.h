#pragma once
// Each subcommand registers itself on the app and leaves its exit status in `status`
// (0 holds, 1 violation found, 2 bad usage or input, 3 inconclusive: docs/formats.md).
#include <CLI/CLI.hpp>

namespace syncbisim::cli {

struct Context {
  int status = 0;
};

// What registers one subcommand (cmd_<name>.cpp defines add_<name>).
using AddCommand = void(CLI::App& app, Context& ctx);
AddCommand add_show, add_run, add_allocate, add_stats, add_check, add_demo, add_fuzz, add_shrink, add_prove, add_gen,
    add_replay, add_simulate, add_table2, add_deps;

}  // namespace syncbisim::cli
