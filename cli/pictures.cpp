#include "cli/pictures.h"

#include <iostream>

#include "cli/inputs.h"
#include "formats/load.h"
#include "latency/counterexample_svg.h"

namespace syncbisim::cli {

namespace {

int write(const std::string& path, const std::string& svg) {
  if (auto s = formats::write_file_atomically(path, svg); !s) {
    auto d = s.error();
    d.file = path;
    return input_error(d);
  }
  return 0;
}

}  // namespace

int write_counterexample_svg(const std::string& path, const semantics::Lockstep& both, const checker::CheckResult& r) {
  const auto svg = latency::counterexample_svg(both, r);
  if (!svg) {
    std::cerr << "syncbisim check: no violation, so no counterexample to draw (" << path << " not written)\n";
    return 0;
  }
  return write(path, *svg);
}

int write_run_svg(const std::string& path, const semantics::Lockstep& both, const semantics::RunResult& r) {
  return write(path, latency::run_svg(both, r));
}

}  // namespace syncbisim::cli
