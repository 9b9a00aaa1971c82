#pragma once
// A fuzz campaign against the allocator (GitHub issue 6, docs/fuzzing.md): generate specs from a
// seed, allocate, check exhaustively under a state limit, and minimize every failure. Run r uses
// a seed derived from (campaign seed, r) alone, so any run replays by itself, and shards
// (r % K == I) partition a campaign reproducibly.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/allocate_fn.h"
#include "fuzz/case_check.h"
#include "fuzz/failure.h"
#include "fuzz/generator_stats.h"
#include "fuzz/shrink.h"
#include "generators/spec_gen.h"
#include "model/program.h"

namespace syncbisim::fuzz {

// Which specs a campaign draws.
enum class SpecMix : std::uint8_t {
  Allocatable,  // gen_spec with allocatable_only
  Arbitrary,    // arbitrary dependencies (the closed forms beyond paper §5.2 get exercised)
  Mixed,        // each run picks one of the two from its seed
  // The mixed draw as it was before issue 40: no swarm, no liveness, degenerate specs (nothing
  // can bind: no dependency, offsets at @top, dead code) included. For parser and edge testing.
  Degenerate,
};
const char* to_string(SpecMix m);
std::optional<SpecMix> parse_spec_mix(const std::string& s);

struct RunFailure {
  std::uint64_t run = 0;
  std::uint64_t seed = 0;              // run_seed
  Failure failure;                     // what kind of failure (kept by the shrinker)
  std::string what;                    // its message: the violation, or the allocator's fault and detail
  model::Program spec, impl;           // as found (impl empty when the allocator gave none)
  AllocatorReply reply;                // what the allocator answered for the spec as found
  std::optional<ShrinkResult> shrunk;  // minimized (same failure)
  nlohmann::json traces;               // of the case written (the minimized one if any)
  std::string report;                  // checker::render_text of that case
  // The case to write: the minimized one if any.
  const model::Program& written_spec() const { return shrunk ? shrunk->spec : spec; }
  const model::Program& written_impl() const { return shrunk ? shrunk->impl : impl; }
  const AllocatorReply& written_reply() const { return shrunk ? shrunk->reply : reply; }
};

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
  bool declined_is_failure = false;  // an allocator's refusal counts as a failure (AllocatorFault::Declined)
  std::uint64_t max_states = 20000;  // per check; a run that hits it is inconclusive
  std::uint64_t max_failures = 0;    // stop after this many failures (0: run them all)
  bool minimize = true;              // shrink every failure but timeouts (each candidate could take the deadline)
  ShrinkOptions shrink;              // its check options are set from the above
  unsigned jobs = 1;                 // runs at once; the result is the same for any number
  // Set from outside (Ctrl-C): no new run starts and the result holds every run finished so far
  // (`interrupted`); an allocator in flight is stopped by its own options.
  const std::atomic<bool>* stop = nullptr;
  // Called after every run that joins the result, with the runs done and the runs in the campaign.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  // Called with each failure once it is final, in run order (and on an interruption with the
  // failures finished out of that order too), so a caller can write it before the campaign ends.
  // Calls never overlap.
  std::function<void(const RunFailure&)> on_failure;
};

// The seed and spec of run r (what `fuzz --start r --runs 1` regenerates).
std::uint64_t run_seed(std::uint64_t campaign_seed, std::uint64_t run);
struct RunSpec {
  model::Program spec;
  bool allocatable_gen = false;  // drawn with allocatable_only
  bool footprints = false;       // a kernel with footprints, its dependencies derived from them
  int size = 0;
  // What the spec exercises (fuzz/spec_profile.h), computed once as the draw is judged; none
  // when the spec does not index (a generator bug, which the campaign reports as such).
  std::optional<SpecProfile> profile;
};
// Throws what the generator throws when it gives up (rc::GenerationFailure); a campaign counts
// such a run as skipped. RapidCheck's generation context is process-wide, so threads that call it
// at once pass one `draw_lock`: it is held for each draw only, not while the draw is judged (the
// footprints' graph derived, the dependencies' liveness), which runs in parallel.
RunSpec spec_for_run(std::uint64_t campaign_seed, std::uint64_t run, SpecMix mix, int max_size,
                     std::mutex* draw_lock = nullptr);
// How many draws a run makes at most for a spec with a live dependency (spec_for_run).
inline constexpr std::uint64_t kLiveAttempts = 16;
// The generator options of a campaign: acyclic, uniform control (no spec deadlock), small enough
// to check exhaustively in milliseconds; with `live`, dependencies that can bind (issue 40). A
// campaign draws them under a swarm configuration (generators/swarm.h).
generators::SpecGenOptions campaign_spec_options(bool allocatable_only, bool live = true);
// The run indices of a campaign, in order (start .. start + runs - 1, those of its shard):
// computed, never listed, so that a campaign of 10^9 runs holds no list of them (issue 43).
struct CampaignRuns {
  std::uint64_t first = 0, step = 1, count = 0;
  std::uint64_t at(std::uint64_t pos) const { return first + pos * step; }  // pos < count
};
CampaignRuns campaign_runs(const CampaignOptions& options);

// A run that is neither a pass nor a failure, and why: a refusal, or a check cut by its limit.
struct RunNote {
  std::uint64_t run = 0, seed = 0;
  std::string why;
};

struct CampaignResult {
  std::uint64_t runs = 0, passed = 0, failures = 0, declined = 0, inconclusive = 0, skipped = 0;
  double seconds = 0;
  bool interrupted = false;                // stopped from outside before every run was done
  std::size_t threads = 0;                 // that ran the runs: fewer than asked when the system refused more
  std::vector<RunFailure> failed;          // in run order
  std::vector<RunNote> declines;           // the first kMaxNotes refusals, in run order
  std::vector<RunNote> inconclusive_runs;  // the first kMaxNotes, with the limit that cut each
  GeneratorStats generator;                // what the specs of the runs in the result exercised
  static constexpr std::size_t kMaxNotes = 1000;
};

CampaignResult run_campaign(const AllocateFn& allocate, const CampaignOptions& options);

}  // namespace syncbisim::fuzz
