// Fuzzing an allocator of your own through syncbisim's installed C++ package (docs/api.md).
//
//   consumer [--plant-bug] [OUT_DIR]
//
// Runs a campaign against my_compiler::allocate, prints what syncbisim prints, and, for the
// first failure, shrinks it again through the API and checks the minimized pair. Exit status:
// that of the campaign (0 no failure, 1 failures).
#include <syncbisim/syncbisim.h>
#include <iostream>
#include <string>

#include "my_allocator.h"

int main(int argc, char** argv) {
  bool plant_bug = false;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--plant-bug") plant_bug = true;
    else out = arg;
  }
  const syncbisim::Allocator mine = [plant_bug](const std::string& spec) {
    return my_compiler::allocate(spec, plant_bug);
  };
  syncbisim::FuzzOptions options;
  options.runs = 500;
  options.seed = 1;
  options.specs = syncbisim::SpecMix::Allocatable;
  options.max_failures = 1;
  options.shrink_max_seconds = 0;  // only the step budget: the same result on any machine
  options.jobs = 2;
  options.out = out;
  const auto result = syncbisim::fuzz_allocator(mine, options);
  std::cout << result.text;
  if (result.failed.empty()) return result.exit_status();

  const auto& f = result.failed.front();
  const auto again = syncbisim::shrink(f.spec, mine);
  std::cout << "shrunk again: " << again.failure << " (" << again.after << ")\n";
  if (again.impl)
    std::cout << "check: " << syncbisim::to_string(syncbisim::check(again.spec, *again.impl).verdict) << "\n";
  return result.exit_status();
}
