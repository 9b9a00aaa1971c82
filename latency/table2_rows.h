#pragma once
// Which rows `syncbisim table2` makes, and each row from its spec (docs/timing.md "Table 2"): the
// corpus kernels at the paper's scale by default, else the specs given, each also with loops
// unrolled first. The command and the public API's table2() both go through these, so the two
// make the same rows under the same names.
#include <optional>
#include <string>
#include <vector>

#include "latency/table2.h"
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::latency {

struct Table2Job {
  std::string path;  // the spec's file: the caller loads it, errors name it
  std::string key;   // the row's name, which finds the paper's row: the file's stem, "+L" per loop unrolled
  std::vector<std::string> unroll;  // loops unrolled first
  bool if_present = false;          // a row only where the spec has every loop of `unroll`
};

// The default rows: default_kernel_rows() under `corpus`/kernels, in the paper's order.
std::vector<Table2Job> default_table2_jobs(const std::string& corpus);
// Specs given: each its own row and, with `unroll`, a second with those loops unrolled first
// (only for the specs that have them all).
std::vector<Table2Job> given_table2_jobs(const std::vector<std::string>& paths, const std::vector<std::string>& unroll);

// The job's row from its spec (loaded, `ix` built from it); nothing where the job is `if_present`
// and the spec lacks one of the loops. With `derived`, a spec with footprints gets the graph
// derived from them (syncbisim deps) instead of the written one, and " (derived)" after its key.
model::Result<std::optional<Row>> table2_job_row(const model::Program& spec, const model::ProgramIndex& ix,
                                                 const Table2Job& job, bool derived, const Table2Options& o = {});

}  // namespace syncbisim::latency
