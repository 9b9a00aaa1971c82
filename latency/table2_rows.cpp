#include "latency/table2_rows.h"

#include <algorithm>
#include <filesystem>

#include "footprint/derive.h"

namespace syncbisim::latency {

namespace fs = std::filesystem;

std::vector<Table2Job> default_table2_jobs(const std::string& corpus) {
  std::vector<Table2Job> jobs;
  for (const auto& k : default_kernel_rows()) {
    std::string key = fs::path(k.file).stem().string();
    for (const auto& l : k.unroll_first) key += "+" + l;
    jobs.push_back({(fs::path(corpus) / "kernels" / k.file).string(), key, k.unroll_first});
  }
  return jobs;
}

std::vector<Table2Job> given_table2_jobs(const std::vector<std::string>& paths,
                                         const std::vector<std::string>& unroll) {
  std::vector<Table2Job> jobs;
  for (const auto& p : paths) {
    const auto stem = fs::path(p).stem().string();
    jobs.push_back({p, stem, {}});
    if (unroll.empty()) continue;
    std::string key = stem;
    for (const auto& l : unroll) key += "+" + l;
    jobs.push_back({p, key, unroll, true});
  }
  return jobs;
}

model::Result<std::optional<Row>> table2_job_row(const model::Program& spec, const model::ProgramIndex& ix,
                                                 const Table2Job& job, bool derived, const Table2Options& o) {
  if (job.if_present && !std::all_of(job.unroll.begin(), job.unroll.end(), [&](const std::string& l) {
        const auto id = ix.loop(l);
        return id && ix.loops[*id].kind == model::LoopKind::Loop;
      }))
    return std::optional<Row>{};
  auto program = spec;
  std::string key = job.key;
  if (derived && program.has_footprints()) {
    // docs/footprints.md: the graph derived from the footprints instead of the written one.
    program.deps = footprint::derive(footprint::Kernel::of(spec, ix)).graph();
    key += " (derived)";
  }
  auto row = table2_row(program, key, job.unroll, o);
  if (!row) {
    auto d = row.error();
    d.file = job.path;
    return d;
  }
  return std::optional<Row>(std::move(*row));
}

}  // namespace syncbisim::latency
