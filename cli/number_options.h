#pragma once
// Numbers on the command line are taken as written or refused, never wrapped or saturated:
// CLI11 converts "-5" for a 64-bit unsigned option to 2^64 - 5 and a number past 2^64 - 1 to
// 2^64 - 1 without a word, and takes a negative or NaN number of seconds (docs/formats.md
// "The command line"). Called once every subcommand is on the app.
#include <CLI/CLI.hpp>

namespace syncbisim::cli {

// A number of seconds: finite, 0 or more. Checked where each option of seconds is declared.
CLI::Validator seconds();

// Every option of type UINT refuses a sign and a value past 2^64 - 1 (narrower ones are
// range-checked by CLI11 itself); every FLOAT option an infinite or NaN value (what else it
// refuses, as seconds(), is said where it is declared).
void refuse_wrapped_numbers(CLI::App& app);

}  // namespace syncbisim::cli
