#pragma once
// `--state-store flat|tree` (docs/checker.md "State storage"): how an exhaustive search keeps its
// visited set. One place for syncbisim check and syncbisim-mpi check, so that both take the same
// names and refuse a bad one with the same message.
#include <CLI/CLI.hpp>

#include "checker/explorer.h"

namespace syncbisim::cli {

// Adds the option to `cmd`, writing into `store` (flat unless given). `help` ends the shared
// first half of the option's help line: what the choice costs where the command searches.
void add_state_store_option(CLI::App* cmd, checker::StateStore& store, const std::string& help);

}  // namespace syncbisim::cli
