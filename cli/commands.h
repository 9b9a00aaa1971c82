#pragma once
// Each subcommand registers itself on the app and leaves its exit status in `status`
// (0 holds, 1 violation found, 2 bad usage or input, 3 inconclusive: docs/formats.md).
#include <CLI/CLI.hpp>

namespace syncbisim::cli {

struct Context {
  int status = 0;
};

void add_show(CLI::App& app, Context& ctx);
void add_run(CLI::App& app, Context& ctx);
void add_allocate(CLI::App& app, Context& ctx);
void add_stats(CLI::App& app, Context& ctx);
void add_check(CLI::App& app, Context& ctx);
void add_demo(CLI::App& app, Context& ctx);
void add_fuzz(CLI::App& app, Context& ctx);
void add_shrink(CLI::App& app, Context& ctx);
void add_prove(CLI::App& app, Context& ctx);
void add_gen(CLI::App& app, Context& ctx);
void add_replay(CLI::App& app, Context& ctx);
void add_simulate(CLI::App& app, Context& ctx);
void add_table2(CLI::App& app, Context& ctx);

}  // namespace syncbisim::cli
