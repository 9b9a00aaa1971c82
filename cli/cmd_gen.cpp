// syncbisim gen --seed S [--start R] [--runs K] [--specs M] [--max-size N] [-o DIR] [--text]: the
// specs a fuzz campaign with the same seed draws, run by run (docs/fuzzing.md "Specs for your own
// harness"). With -o each goes to DIR/s<run>.spec.json; without, they are printed: one
// compact JSON document per line (JSON Lines), or with --text one text program after another.
// With --stats: where the specs' dependencies went instead (fuzz/generator_stats.h), without
// allocating anything: the generator measured alone.
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "fuzz/campaign.h"
#include "fuzz/generator_stats.h"

namespace syncbisim::cli {

namespace {

struct GenArgs {
  std::uint64_t seed = 1, start = 0, runs = 1;
  std::string specs = "mixed", out;
  int max_size = 100;
  bool text = false, stats = false;
};

// The canonical JSON on one line (formats::write_json pretty-prints), fields in the same order.
std::string one_line(const std::string& pretty) { return nlohmann::ordered_json::parse(pretty).dump(); }

int run_gen(const GenArgs& a) {
  const auto mix = fuzz::parse_spec_mix(a.specs);
  if (!mix) {
    std::cerr << "syncbisim gen: unknown --specs '" << a.specs << "' (allocatable, arbitrary, mixed, degenerate)\n";
    return 2;
  }
  if (!a.out.empty())
    if (const int status = create_out_directory(a.out)) return status;
  std::uint64_t skipped = 0;
  fuzz::GeneratorStats stats;
  for (std::uint64_t r = a.start; r < a.start + a.runs; ++r) {
    fuzz::RunSpec rs;
    try {
      rs = fuzz::spec_for_run(a.seed, r, *mix, a.max_size);
    } catch (const std::exception&) {  // the generator gave up: the campaign skips this run too
      std::cerr << "syncbisim gen: run " << r << ": the generator gave up (the campaign skips this run)\n";
      ++skipped;
      continue;
    }
    if (a.stats) {
      if (rs.profile) stats.add(*rs.profile);
      continue;
    }
    if (!a.out.empty()) {
      const auto path = (std::filesystem::path(a.out) / ("s" + std::to_string(r) + ".spec.json")).string();
      const std::string content = a.text ? formats::write_text(rs.spec) : formats::write_json(rs.spec);
      if (auto s = formats::write_file_atomically(path, content); !s) {
        auto d = s.error();
        if (d.file.empty()) d.file = path;
        return input_error(d);
      }
    } else if (a.text) {
      std::cout << "# run " << r << "\n" << formats::write_text(rs.spec) << "\n";
    } else {
      std::cout << one_line(formats::write_json(rs.spec)) << "\n";
    }
  }
  if (a.stats) {
    std::cout << fuzz::stats_text(stats);
    return 0;
  }
  if (!a.out.empty()) std::cerr << "syncbisim gen: wrote " << a.runs - skipped << " specs to " << a.out << "\n";
  return 0;
}

}  // namespace

void add_gen(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] =
      add_command<GenArgs>(app, ctx, name, "Write the random specs a fuzz campaign draws, for your own harness", run_gen);
  cmd->add_option("--seed", a->seed, "campaign seed (the same as fuzz --seed)")->capture_default_str();
  cmd->add_option("--start", a->start, "index of the first run")->capture_default_str();
  cmd->add_option("--runs", a->runs, "number of specs")->capture_default_str();
  cmd->add_option("--specs", a->specs, "allocatable | arbitrary | mixed | degenerate (no swarm, no liveness: for edge testing)")->capture_default_str();
  cmd->add_option("--max-size", a->max_size, "largest generator size (as fuzz --max-size)")->capture_default_str();
  cmd->add_option("-o,--out", a->out, "write DIR/s<run>.spec.json (else print one JSON document per line)");
  cmd->add_flag("--text", a->text, "the text format instead of JSON");
  cmd->add_flag("--stats", a->stats, "print where the specs' dependencies went (as fuzz --stats), not the specs");
}

}  // namespace syncbisim::cli
