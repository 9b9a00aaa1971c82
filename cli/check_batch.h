#pragma once
// `check --batch`: many pairs in one call (docs/checker.md "Progress, batches"). A manifest
// lists pairs, one per line, `SPEC IMPL [expected verdict]` (a path is taken from the current
// directory, else from the manifest's directory or the first one above it where it exists); or a
// directory is searched (recursively) for impls, each paired
// with the spec its `# spec:` header names, or else with the spec of the same name
// (X.impl.json with X.spec.json or X.json), its expected verdict taken from an `# expect:`
// header. Every pair is checked on its own (several at once with --jobs), and the status of the
// batch is that of its worst pair.
#include <nlohmann/json.hpp>
#include <optional>
#include <functional>
#include <string>
#include <vector>

#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "model/result.h"

namespace syncbisim::cli {

struct BatchEntry {
  std::string spec, impl;
  std::optional<std::string> expected;  // a verdict name, as check prints it
  std::string origin;                   // "MANIFEST:LINE" or the impl's path
};

// The pairs of a manifest file or of a directory (see above).
model::Result<std::vector<BatchEntry>> read_batch(const std::string& path);

struct BatchOptions {
  checker::CheckOptions check;
  checker::PairOptions pair;
  unsigned jobs = 1;
  // The seconds each pair's search may take when it starts (the command's --max-seconds, counted
  // from the process's start: cli/deadline.h); unset, check.max_seconds.
  std::function<double()> seconds_left;
};

struct BatchResult {
  BatchEntry entry;
  std::string error;  // the pair does not load or does not correspond (status 2)
  checker::CheckResult check;
  int status = 0;  // 0 as expected or holds, 1 a mismatch or a violation, 3 inconclusive, 2 bad input
};

// In the entries' order, whatever order they finish in.
std::vector<BatchResult> run_batch(const std::vector<BatchEntry>& entries, const BatchOptions& options);

// The worst status: bad input, then a mismatch or violation, then inconclusive, then 0.
int batch_status(const std::vector<BatchResult>& results);
std::string batch_text(const std::vector<BatchResult>& results, double seconds);
nlohmann::json batch_json(const std::vector<BatchResult>& results, double seconds);

}  // namespace syncbisim::cli
