// syncbisim table2 [SPEC...] [--unroll LOOP]... [--costs FILE] [--json] [--corpus DIR]: the paper's
// Table 2 on the timing model, ours beside the paper's (docs/timing.md "Table 2"). Without SPEC,
// the corpus kernels at the paper's scale, including TiledMatmul with k unrolled.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "footprint/derive.h"
#include "latency/table2.h"

namespace syncbisim::cli {

namespace fs = std::filesystem;

namespace {

struct Table2Args {
  std::vector<std::string> specs, unroll;
  std::string costs, corpus = SYNCBISIM_SOURCE_DIR "/corpus";
  bool json = false;
  bool derived = false;  // --derived: a spec with footprints gets its derived graph first
  std::uint64_t max_unroll = latency::kTable2MaxUnroll;
};

nlohmann::json to_json(const latency::Row& r) {
  nlohmann::json j;
  j["kernel"] = r.key;
  j["title"] = r.title;
  j["loops"] = r.loops;
  j["offsets"] = r.offsets;
  j["trips"] = r.trips;
  for (std::size_t v = 0; v < latency::kVariants; ++v) {
    const auto& f = r.ours[v];
    nlohmann::json c;
    c["available"] = f.available;
    if (f.available) {
      c["lat"] = f.lat;
      c["makespan"] = f.makespan;
      c["code_bytes"] = f.code_bytes;
      c["regs"] = f.regs;
      c["sema"] = f.sema;
      c["deadlock"] = f.deadlock;
    } else {
      c["why_not"] = f.why_not;
    }
    j["ours"][latency::to_string(static_cast<latency::Variant>(v))] = c;
  }
  if (r.paper) {
    auto pf = [](const latency::PaperFigures& f) {
      if (!f.available) return nlohmann::json{{"available", false}};
      return nlohmann::json{{"available", true}, {"lat", f.lat}, {"code", f.code}, {"regs", f.regs}, {"sema", f.sema}};
    };
    j["paper"] = {{"benchmark", r.paper->benchmark},
                  {"loops", r.paper->loops},
                  {"offsets", r.paper->offsets},
                  {"barrier", pf(r.paper->barrier)},
                  {"barrier_free", pf(r.paper->barrier_free)},
                  {"manual", pf(r.paper->manual)},
                  {"unrolled", pf(r.paper->unrolled)}};
  }
  return j;
}

int run(const Table2Args& a) {
  int status = 0;
  latency::Table2Options o;
  o.max_unroll = a.max_unroll;
  if (!a.costs.empty()) {
    auto t = timing::load_cost_table(a.costs);
    if (!t) return input_error(t.error());
    o.costs = std::move(*t);
  }
  struct Job {
    std::string path, key;
    std::vector<std::string> unroll;
    bool if_present = false;  // --unroll on a given SPEC: a row only where the spec has those loops
  };
  std::vector<Job> jobs;
  if (a.specs.empty()) {
    for (const auto& k : latency::default_kernel_rows()) {
      const auto path = (fs::path(a.corpus) / "kernels" / k.file).string();
      std::string key = fs::path(k.file).stem().string();
      for (const auto& l : k.unroll_first) key += "+" + l;
      jobs.push_back({path, key, k.unroll_first});
    }
  } else {
    for (const auto& s : a.specs) {
      const auto stem = fs::path(s).stem().string();
      jobs.push_back({s, stem, {}});
      if (!a.unroll.empty()) {
        std::string key = stem;
        for (const auto& l : a.unroll) key += "+" + l;
        jobs.push_back({s, key, a.unroll, true});
      }
    }
  }
  std::vector<latency::Row> rows;
  for (const auto& j : jobs) {
    auto spec = load_spec(j.path, status);
    if (!spec) return status;
    if (j.if_present && !std::all_of(j.unroll.begin(), j.unroll.end(), [&](const std::string& l) {
          const auto id = spec->index.loop(l);
          return id && spec->index.loops[*id].kind == model::LoopKind::Loop;
        }))
      continue;
    auto program = spec->program;
    std::string key = j.key;
    if (a.derived && program.has_footprints()) {
      // docs/footprints.md: the graph derived from the footprints instead of the written one.
      program.deps = footprint::derive(footprint::Kernel::of(spec->program, spec->index)).graph();
      key += " (derived)";
    }
    auto row = latency::table2_row(program, key, j.unroll, o);
    if (!row) {
      auto d = row.error();
      d.file = j.path;
      return input_error(d);
    }
    rows.push_back(std::move(*row));
  }
  if (a.json) {
    nlohmann::json out{{"syncbisim", "table2/1"}, {"rows", nlohmann::json::array()}};
    for (const auto& r : rows) out["rows"].push_back(to_json(r));
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << latency::render_text(rows);
  }
  return 0;
}

}  // namespace

void add_table2(CLI::App& app, Context& ctx) {
  auto [cmd, a] = add_command<Table2Args>(app, ctx, "table2",
                                          "The paper's Table 2 on the timing model, beside the paper's figures", run);
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
