// syncbisim table2 [SPEC...] [--unroll LOOP]... [--costs FILE] [--json] [--corpus DIR]: the paper's
// Table 2 on the timing model, ours beside the paper's (docs/timing.md "Table 2"). Without SPEC,
// the corpus kernels at the paper's scale, including TiledMatmul with k unrolled.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/json_text.h"
#include "latency/table2.h"
#include "latency/table2_json.h"
#include "latency/table2_rows.h"

namespace syncbisim::cli {

namespace {

struct Table2Args {
  std::vector<std::string> specs, unroll;
  std::string costs, corpus = SYNCBISIM_SOURCE_DIR "/corpus";
  bool json = false;
  bool derived = false;  // --derived: a spec with footprints gets its derived graph first
  std::uint64_t max_unroll = latency::kTable2MaxUnroll;
};

// The rows and their output are the library's (latency/table2_rows.h, latency/table2_json.h),
// which the public API's table2() makes too.
int run_table2(const Table2Args& a) {
  int status = 0;
  latency::Table2Options o;
  o.max_unroll = a.max_unroll;
  if (!a.costs.empty()) {
    auto t = timing::load_cost_table(a.costs);
    if (!t) return input_error(t.error());
    o.costs = std::move(*t);
  }
  const auto jobs =
      a.specs.empty() ? latency::default_table2_jobs(a.corpus) : latency::given_table2_jobs(a.specs, a.unroll);
  std::vector<latency::Row> rows;
  for (const auto& j : jobs) {
    auto spec = load_spec(j.path, status);
    if (!spec) return status;
    auto row = latency::table2_job_row(spec->program, spec->index, j, a.derived, o);
    if (!row) return input_error(row.error());
    if (*row) rows.push_back(std::move(**row));
  }
  if (a.json)
    std::cout << formats::json_text(latency::render_json(rows));
  else std::cout << latency::render_text(rows);
  return 0;
}

}  // namespace

void add_table2(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] = add_command<Table2Args>(app, ctx, name,
                                          "The paper's Table 2 on the timing model, beside the paper's figures", run_table2);
  cmd->add_option("SPEC", a->specs, "spec programs (default: the corpus kernels)")->check(CLI::ExistingFile);
  cmd->add_option("--unroll", a->unroll, "also give each SPEC a row with these loops unrolled first (repeatable)");
  cmd->add_option("--max-unroll", a->max_unroll,
                  "the most instructions, and dependencies, an unrolled program may have (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--costs", a->costs, "cost table (JSON, docs/timing.md)")->check(CLI::ExistingFile);
  cmd->add_option("--corpus", a->corpus, "the corpus directory for the default rows")->capture_default_str();
  cmd->add_flag("--json", a->json, "print a JSON array, one object per row");
  cmd->add_flag("--derived", a->derived,
                "for a SPEC with footprints, the dependency graph derived from them (syncbisim deps) instead of "
                "the written one");
}

}  // namespace syncbisim::cli
