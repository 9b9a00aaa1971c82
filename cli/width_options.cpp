#include "cli/width_options.h"

namespace syncbisim::cli {

void add_width_options(CLI::App* cmd, model::ValueWidths& w) {
  // The ranges model::ValueWidths documents: a register of 1 to 64 bits; a signed semaphore needs
  // a sign bit and at least one value bit.
  cmd->add_option("--register-bits", w.register_bits,
                  "register width in bits: a register value past 2^N - 1 is an overflow finding")
      ->capture_default_str()
      ->check(CLI::Range(1U, 64U));
  cmd->add_option("--semaphore-bits", w.semaphore_bits,
                  "signed semaphore width in bits: a semaphore value past 2^(N-1) - 1 is an overflow finding")
      ->capture_default_str()
      ->check(CLI::Range(2U, 64U));
}

}  // namespace syncbisim::cli
