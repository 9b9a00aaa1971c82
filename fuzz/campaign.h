#pragma once
// A fuzz campaign against the allocator (GitHub issue 6, docs/fuzzing.md): generate specs from a
// seed, allocate, check exhaustively under a state limit, and minimize every failure. Run r uses
// a seed derived from (campaign seed, r) alone, so any run replays by itself, and shards
// (r % K == I) partition a campaign reproducibly.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/allocate_fn.h"
#include "fuzz/case_check.h"
#include "fuzz/failure.h"
#include "fuzz/shrink.h"
#include "generators/spec_gen.h"
#include "model/program.h"

namespace syncbisim::fuzz {

// Which specs a campaign draws.
enum class SpecMix : std::uint8_t {
  Allocatable,  // gen_spec with allocatable_only
  Arbitrary,    // arbitrary dependencies (the fallback gets exercised)
  Mixed,        // each run picks one of the two from its seed
};
const char* to_string(SpecMix m);
std::optional<SpecMix> parse_spec_mix(const std::string& s);

struct CampaignOptions {
  std::uint64_t seed = 1;
  std::uint64_t start = 0;   // the first run index
  std::uint64_t runs = 100;  // runs start .. start + runs - 1 (before sharding)
  std::uint64_t shard_index = 0, shard_count = 1;
  SpecMix specs = SpecMix::Mixed;
  int max_size = 100;  // RapidCheck size of the spec generator; each run draws one in max_size/2..max_size
  // Over-synchronization and impl-only deadlocks count as failures on allocatable specs
  // (a barrier-free strategy); otherwise only under-synchronization does.
  bool exact = true;
  std::uint64_t max_states = 20000;  // per check; a run that hits it is inconclusive
  std::uint64_t max_failures = 0;    // stop after this many failures (0: run them all)
  bool minimize = true;
  ShrinkOptions shrink;                                                   // its check options are set from the above
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;  // after every run
};

// The seed and spec of run r (what `fuzz --start r --runs 1` regenerates).
std::uint64_t run_seed(std::uint64_t campaign_seed, std::uint64_t run);
struct RunSpec {
  model::Program spec;
  bool allocatable_gen = false;  // drawn with allocatable_only
  int size = 0;
};
RunSpec spec_for_run(std::uint64_t campaign_seed, std::uint64_t run, SpecMix mix, int max_size);
// The generator options of a campaign: acyclic, uniform control (no spec deadlock), small enough
// to check exhaustively in milliseconds.
generators::SpecGenOptions campaign_spec_options(bool allocatable_only);

struct RunFailure {
  std::uint64_t run = 0;
  std::uint64_t seed = 0;              // run_seed
  std::string what;                    // the failure, or the allocator's error
  model::Program spec, impl;           // as found
  std::optional<ShrinkResult> shrunk;  // minimized (same failure)
  nlohmann::json traces;               // of the case written (the minimized one if any)
  std::string report;                  // checker::render_text of that case
};

struct CampaignResult {
  std::uint64_t runs = 0, passed = 0, failures = 0, inconclusive = 0, skipped = 0;
  double seconds = 0;
  std::vector<RunFailure> failed;
};

CampaignResult run_campaign(const AllocateFn& allocate, const CampaignOptions& options);

}  // namespace syncbisim::fuzz
