#pragma once
// `--register-bits N` and `--semaphore-bits N` (docs/semantics.md "Widths"): the hardware's widths
// that check and run hold register and semaphore values to. One place, so that every command that
// takes them gives them the same names, ranges and help.
#include <CLI/CLI.hpp>

#include "model/value_width.h"

namespace syncbisim::cli {

// Adds both options to `cmd`, writing into `w` (whose defaults, 32 and 32, are shown in --help).
void add_width_options(CLI::App* cmd, model::ValueWidths& w);

}  // namespace syncbisim::cli
