// syncbisim fuzz --strategy S --runs N --seed X [--start R] [--shard I/K] [--json] [--out DIR]:
// a campaign against the allocator (docs/fuzzing.md). Every failure is minimized (same kind, same
// instruction) and written to DIR with its trace and the commands that reproduce it.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/json_format.h"
#include "formats/load.h"
#include "fuzz/campaign.h"

namespace syncbisim::cli {

namespace {

struct FuzzArgs {
  std::string strategy = "auto", shard = "0/1", out, specs = "mixed";
  std::uint64_t runs = 100, seed = 1, start = 0, max_states = 20000, max_steps = 2000, max_failures = 0;
  int max_size = 100;
  double max_seconds = 30;
  bool json = false, no_shrink = false;
};

bool parse_shard(const std::string& s, std::uint64_t& i, std::uint64_t& k) {
  const auto slash = s.find('/');
  if (slash == std::string::npos) return false;
  try {
    std::size_t n1 = 0, n2 = 0;
    i = std::stoull(s.substr(0, slash), &n1);
    k = std::stoull(s.substr(slash + 1), &n2);
    return n1 == slash && n2 == s.size() - slash - 1 && k > 0 && i < k;
  } catch (const std::exception&) {
    return false;
  }
}

// The fuzz command that replays run r alone.
std::string replay_command(const FuzzArgs& a, std::uint64_t r) {
  std::ostringstream c;
  c << "syncbisim fuzz --strategy " << a.strategy << " --seed " << a.seed << " --start " << r << " --runs 1 --specs "
    << a.specs << " --max-size " << a.max_size << " --max-states " << a.max_states;
  return c.str();
}

// Writes spec, impl, trace and the reproducing commands of one failure; returns the file stem.
std::optional<std::string> write_failure(const FuzzArgs& a, const fuzz::RunFailure& f, int& status) {
  const std::string stem = (std::filesystem::path(a.out) / ("f" + std::to_string(f.run))).string();
  const model::Program& spec = f.shrunk ? f.shrunk->spec : f.spec;
  const model::Program& impl = f.shrunk ? f.shrunk->impl : f.impl;
  std::vector<std::pair<std::string, std::string>> files = {{stem + ".spec.json", formats::write_json(spec)}};
  if (!impl.engines.empty()) {
    files.push_back({stem + ".impl.json", formats::write_json(impl)});
    files.push_back({stem + ".trace.json", f.traces.dump(2) + "\n"});
  }
  files.push_back({stem + ".repro.sh", "syncbisim check " + stem + ".spec.json " + stem + ".impl.json\n" +
                                           replay_command(a, f.run) + "\n"});
  for (const auto& [path, content] : files) {
    if (auto s = formats::write_file_atomically(path, content); !s) {
      auto d = s.error();
      if (d.file.empty()) d.file = path;
      status = input_error(d);
      return std::nullopt;
    }
  }
  return stem;
}

int run(const FuzzArgs& a) {
  const auto strategy = allocator::parse_strategy(a.strategy);
  if (!strategy) {
    std::cerr << "syncbisim fuzz: unknown strategy '" << a.strategy
              << "' (barrier, per-instruction, per-loop, per-engine, auto)\n";
    return 2;
  }
  const auto mix = fuzz::parse_spec_mix(a.specs);
  if (!mix) {
    std::cerr << "syncbisim fuzz: unknown --specs '" << a.specs << "' (allocatable, arbitrary, mixed)\n";
    return 2;
  }
  fuzz::CampaignOptions o;
  if (!parse_shard(a.shard, o.shard_index, o.shard_count)) {
    std::cerr << "syncbisim fuzz: --shard wants I/K with 0 <= I < K, got '" << a.shard << "'\n";
    return 2;
  }
  if (!a.out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.out, ec);
    if (ec) return input_error(model::Diagnostic{a.out, "", "io", "cannot create the directory: " + ec.message()});
  }
  o.seed = a.seed;
  o.start = a.start;
  o.runs = a.runs;
  o.specs = *mix;
  o.max_size = a.max_size;
  o.exact = *strategy != allocator::Strategy::Barrier;
  o.max_states = a.max_states;
  o.max_failures = a.max_failures;
  o.minimize = !a.no_shrink;
  o.shrink.max_steps = a.max_steps;
  o.shrink.max_seconds = a.max_seconds;
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (tty)
    o.progress = [](std::uint64_t done, std::uint64_t total) {
      if (done % 64 == 0) std::fprintf(stderr, "\rrun %llu/%llu", (unsigned long long)done, (unsigned long long)total);
    };
  const auto r = fuzz::run_campaign(fuzz::allocate_with(*strategy), o);
  if (tty) std::fprintf(stderr, "\r%40s\r", "");

  int status = 0;
  nlohmann::json failed = nlohmann::json::array();
  for (const auto& f : r.failed) {
    nlohmann::json j{{"run", f.run}, {"seed", f.seed}, {"failure", f.what}, {"replay", replay_command(a, f.run)}};
    if (f.shrunk) {
      j["before"] = f.shrunk->before.to_string();
      j["after"] = f.shrunk->after.to_string();
    }
    if (!a.out.empty()) {
      auto stem = write_failure(a, f, status);
      if (!stem) return status;
      j["files"] = *stem;
      j["check"] = "syncbisim check " + *stem + ".spec.json " + *stem + ".impl.json";
    }
    if (!a.json) {
      std::cout << "run " << f.run << ": " << f.what;
      if (f.shrunk)
        std::cout << " (shrunk from " << f.shrunk->before.to_string() << " to " << f.shrunk->after.to_string() << ")";
      std::cout << "\n";
      if (j.contains("check")) std::cout << "  " << j["check"].get<std::string>() << "\n";
      std::cout << "  " << replay_command(a, f.run) << "\n";
    }
    failed.push_back(std::move(j));
  }
  const double rate = r.seconds > 0 ? r.runs / r.seconds : 0.0;
  if (a.json) {
    nlohmann::json j{
        {"strategy", a.strategy}, {"seed", a.seed},       {"start", a.start},        {"shard", a.shard},
        {"runs", r.runs},         {"passed", r.passed},   {"failures", r.failures},  {"inconclusive", r.inconclusive},
        {"skipped", r.skipped},   {"seconds", r.seconds}, {"runs_per_second", rate}, {"failed", failed}};
    std::cout << j.dump(2) << "\n";
  } else {
    char line[200];
    std::snprintf(line, sizeof line,
                  "runs %llu, failures %llu, inconclusive %llu, skipped %llu, %.1f runs/s (%.2f s)\n",
                  (unsigned long long)r.runs, (unsigned long long)r.failures, (unsigned long long)r.inconclusive,
                  (unsigned long long)r.skipped, rate, r.seconds);
    std::cout << line;
  }
  return r.failures > 0 ? 1 : 0;
}

}  // namespace

void add_fuzz(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<FuzzArgs>();
  auto* cmd = app.add_subcommand("fuzz", "Fuzz the allocator: generate specs, allocate, check, minimize failures");
  cmd->add_option("--strategy", a->strategy, "barrier | per-instruction | per-loop | per-engine | auto")
      ->capture_default_str();
  cmd->add_option("--runs", a->runs, "number of runs (before sharding)")->capture_default_str();
  cmd->add_option("--seed", a->seed, "campaign seed; run r uses a seed derived from (seed, r)")->capture_default_str();
  cmd->add_option("--start", a->start, "index of the first run (replay run R alone: --start R --runs 1)")
      ->capture_default_str();
  cmd->add_option("--shard", a->shard, "I/K: only the runs r with r % K == I")->capture_default_str();
  cmd->add_option("--specs", a->specs, "allocatable | arbitrary | mixed")->capture_default_str();
  cmd->add_option("--max-size", a->max_size, "largest generator size (each run draws 1..max)")->capture_default_str();
  cmd->add_option("--max-states", a->max_states, "state limit per check (a run that hits it is inconclusive)")
      ->capture_default_str();
  cmd->add_option("--max-steps", a->max_steps, "shrinker: candidates per failure at most")->capture_default_str();
  cmd->add_option("--max-seconds", a->max_seconds, "shrinker: seconds per failure at most")->capture_default_str();
  cmd->add_option("--max-failures", a->max_failures, "stop after this many failures (0: run them all)")
      ->capture_default_str();
  cmd->add_flag("--no-shrink", a->no_shrink, "write failures as found");
  cmd->add_flag("--json", a->json, "print one JSON document");
  cmd->add_option("--out", a->out, "write each failure's spec, impl, trace and repro commands here");
  cmd->callback([a, &ctx] { ctx.status = run(*a); });
}

}  // namespace syncbisim::cli
