#include "fuzz/campaign.h"

#include <cstdint>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <utility>

#include "fuzz/allocated_case.h"
#include "model/index.h"
#include "model/mix64.h"
#include "footprint/derive.h"
#include "footprint/kernel.h"
#include "generators/footprint_gen.h"
#include "generators/swarm.h"
#include "parallel/run_indexed.h"

namespace syncbisim::fuzz {

namespace {
// The mixes by name, as --specs takes them.
constexpr std::array<std::pair<SpecMix, const char*>, 4> kMixNames{{{SpecMix::Allocatable, "allocatable"},
                                                                   {SpecMix::Arbitrary, "arbitrary"},
                                                                   {SpecMix::Mixed, "mixed"},
                                                                   {SpecMix::Degenerate, "degenerate"}}};
}  // namespace

const char* to_string(SpecMix m) {
  for (const auto& [mix, name] : kMixNames)
    if (mix == m) return name;
  return "?";
}

std::optional<SpecMix> parse_spec_mix(const std::string& s) {
  for (const auto& [mix, name] : kMixNames)
    if (s == name) return mix;
  return std::nullopt;
}

std::uint64_t run_seed(std::uint64_t campaign_seed, std::uint64_t run) {
  return model::mix64(model::mix64(campaign_seed) ^ run);
}

generators::SpecGenOptions campaign_spec_options(bool allocatable_only, bool live) {
  auto o = generators::checkable_spec_options();
  o.deps.allocatable_only = allocatable_only;
  o.deps.live = live;
  return o;
}

namespace {

std::optional<SpecProfile> profile_of(const model::Program& spec) {
  const auto ix = model::ProgramIndex::build(spec);
  if (!ix) return std::nullopt;
  return profile_spec(spec, *ix);
}

// Replaces a footprint kernel's (empty) graph by the one its footprints give (docs/footprints.md
// "Deriving the graph"). False when the kernel is refused or ISL leaves a question open: the
// graph would be incomplete, so the draw is not used.
bool derive_graph(model::Program& spec) {
  const auto ix = model::ProgramIndex::build(spec);
  if (!ix) return false;
  footprint::DeriveOptions o;
  o.max_reduction_work = 2000000;  // kernels of a few dozen instances: the bound is never near
  const auto derived = footprint::derive(footprint::Kernel::of(spec, *ix), o);
  if (!derived.undecided.empty()) return false;
  spec.deps = derived.graph();
  return true;
}

}  // namespace

RunSpec spec_for_run(std::uint64_t campaign_seed, std::uint64_t run, SpecMix mix, int max_size, std::mutex* draw_lock) {
  const std::uint64_t seed = run_seed(campaign_seed, run);
  RunSpec out;
  out.allocatable_gen =
      mix == SpecMix::Allocatable || ((mix == SpecMix::Mixed || mix == SpecMix::Degenerate) && (seed >> 63) == 0);
  // Sizes in the upper half: RapidCheck's lengths are skewed towards short at every size, and a
  // near-empty spec tests nothing.
  const int lo = std::max(1, max_size / 2);
  out.size = lo + static_cast<int>((seed >> 32) % static_cast<std::uint64_t>(std::max(1, max_size - lo + 1)));
  // RapidCheck's draws are made one at a time (draw_lock); what is judged of a draw is not.
  const auto draw = [&](const auto& gen, std::uint64_t from) {
    std::unique_lock<std::mutex> lock;
    if (draw_lock) lock = std::unique_lock<std::mutex>(*draw_lock);
    return gen(rc::Random(from), out.size).value();
  };
  if (mix == SpecMix::Degenerate) {
    out.spec = draw(generators::gen_spec(campaign_spec_options(out.allocatable_gen, false)), seed);
    out.profile = profile_of(out.spec);
    return out;
  }
  // Issue 40: swarm features per draw, dependencies that can bind, and a spec with none drawn
  // again from the next seed of its own sequence (the run stays a function of its seed). Live
  // picks leave few such specs (a tree without instructions that can run, picks that all
  // collapse), so the attempts rarely run out; when they do the last draw stands. One arbitrary
  // draw in four is a kernel with footprints whose graph is derived (its shapes are whatever the
  // accesses make them, so allocatable draws never are).
  out.footprints = !out.allocatable_gen && ((seed >> 40) & 3) == 0;
  const auto options = campaign_spec_options(out.allocatable_gen, true);
  const auto gen = out.footprints ? generators::gen_footprint_spec(options) : generators::gen_swarm_spec(options);
  for (std::uint64_t attempt = 0; attempt < kLiveAttempts; ++attempt) {
    out.spec = draw(gen, attempt == 0 ? seed : run_seed(seed, attempt));
    out.profile.reset();
    if (out.footprints && !derive_graph(out.spec)) continue;
    // Some dependency can bind (analysis/dependency_liveness.h).
    out.profile = profile_of(out.spec);
    if (out.profile && !out.profile->degenerate()) break;
  }
  if (!out.profile) out.profile = profile_of(out.spec);
  return out;
}

CampaignRuns campaign_runs(const CampaignOptions& options) {
  const std::uint64_t k = options.shard_count == 0 ? 1 : options.shard_count;
  const std::uint64_t start = options.start;
  // One past the last run, saturated (start + runs may pass 2^64).
  const std::uint64_t end = options.runs > UINT64_MAX - start ? UINT64_MAX : start + options.runs;
  CampaignRuns out;
  out.step = k;
  const std::uint64_t lag = (options.shard_index % k + k - start % k) % k;  // to the shard's first run
  if (lag >= end - start) return out;
  out.first = start + lag;
  out.count = (end - 1 - out.first) / k + 1;
  return out;
}

namespace {

enum class RunEnd : std::uint8_t { Passed, Failed, Declined, Inconclusive, Skipped, Unfinished };

struct RunOutcome {
  RunEnd end = RunEnd::Passed;
  std::optional<RunFailure> failure;
  RunNote note;                        // declined, inconclusive
  std::optional<SpecProfile> profile;  // of the spec drawn (none when the generator gave up)
};

bool stop_requested(const CampaignOptions& o) { return o.stop && o.stop->load(std::memory_order_relaxed); }

// One run, from its seed alone: what makes the result the same for any number of jobs.
class RunJudge {
 public:
  RunJudge(const AllocateFn& allocate, const CampaignOptions& o, std::mutex& generator)
      : allocate_(allocate), o_(o), generator_(generator) {
    judge_.check.max_states = o.max_states;
    judge_.check.policy = o.exact ? Counts::AllOnAllocatable : Counts::UnderSyncOnly;
    judge_.declined_is_failure = o.declined_is_failure;
    shrink_ = o.shrink;
    shrink_.check = judge_.check;
    shrink_.stop = o.stop;
  }

  RunOutcome run(std::uint64_t r) const {
    RunOutcome out;
    out.note.run = r;
    out.note.seed = run_seed(o_.seed, r);
    RunSpec rs;
    try {
      rs = spec_for_run(o_.seed, r, o_.specs, o_.max_size, &generator_);
    } catch (const std::exception&) {  // a generator that gave up (rc::GenerationFailure)
      out.end = RunEnd::Skipped;
      return out;
    }
    RunFailure f;
    f.run = r;
    f.seed = out.note.seed;
    f.spec = rs.spec;
    const auto ix = model::ProgramIndex::build(rs.spec);
    if (!ix) {  // the generator promises valid specs: a bug of its own, reported as such
      f.failure = AllocatorFault::Error;
      f.what = "the generator gave an invalid spec: " + ix.error().to_string();
      out.end = RunEnd::Failed;
      out.failure = std::move(f);
      return out;
    }
    out.profile = std::move(rs.profile);
    auto judged = allocate_and_check(allocate_, rs.spec, *ix, judge_);
    if (judged.reply.stopped) {
      out.end = RunEnd::Unfinished;
      return out;
    }
    if (judged.declined) {
      out.end = RunEnd::Declined;
      out.note.why = std::get<Declined>(judged.reply.answer).reason;
      return out;
    }
    if (!judged.failure) {
      if (judged.inconclusive()) {
        out.end = RunEnd::Inconclusive;
        out.note.why = judged.check->check.limit;
      }
      return out;
    }
    f.failure = *judged.failure;
    f.what = judged.what;
    if (const auto* a = std::get_if<Allocated>(&judged.reply.answer)) f.impl = a->impl;
    f.reply = std::move(judged.reply);
    if (o_.minimize && f.failure != Failure{AllocatorFault::Timeout}) {
      auto s = fuzz::shrink(rs.spec, DerivedImpl{allocate_, o_.declined_is_failure}, f.failure, shrink_);
      if (s) f.shrunk = std::move(*s);
    }
    if (std::holds_alternative<ViolationAt>(f.failure)) {
      CaseOptions traced = judge_.check;
      traced.want_traces = true;
      auto final_check = check_case(f.written_spec(), f.written_impl(), traced);
      f.traces = std::move(final_check.traces);
      f.report = std::move(final_check.report);
    }
    out.end = RunEnd::Failed;
    out.failure = std::move(f);
    return out;
  }

 private:
  const AllocateFn& allocate_;
  const CampaignOptions& o_;
  std::mutex& generator_;
  JudgeOptions judge_;
  ShrinkOptions shrink_;
};

// Joins finished runs into the result in run order, whatever order they finish in.
class Ledger {
 public:
  Ledger(const CampaignOptions& o, std::size_t total) : o_(o), total_(total) {}

  void finished(std::size_t pos, RunOutcome outcome) {
    const std::lock_guard<std::mutex> lock(m_);
    pending_.emplace(pos, std::move(outcome));
    while (!full_ && !pending_.empty() && pending_.begin()->first == settled_) {
      account(std::move(pending_.begin()->second));
      pending_.erase(pending_.begin());
      ++settled_;
    }
  }
  // The campaign has enough failures (max_failures): no new run needs to start.
  bool full() const { return full_.load(std::memory_order_relaxed); }

  // After the workers: on an interruption, the runs finished beyond the settled prefix join too.
  CampaignResult close(bool interrupted) {
    const std::lock_guard<std::mutex> lock(m_);
    if (interrupted && !full_)
      for (auto& [pos, outcome] : pending_) account(std::move(outcome));
    out_.interrupted = interrupted && !full_ && out_.runs < total_;
    std::sort(out_.failed.begin(), out_.failed.end(),
              [](const RunFailure& a, const RunFailure& b) { return a.run < b.run; });
    return std::move(out_);
  }

 private:
  void account(RunOutcome o) {
    if (o.end == RunEnd::Unfinished) return;
    ++out_.runs;
    if (o.profile) out_.generator.add(*o.profile);
    switch (o.end) {
      case RunEnd::Passed: ++out_.passed; break;
      case RunEnd::Skipped: ++out_.skipped; break;
      case RunEnd::Declined:
        ++out_.declined;
        if (out_.declines.size() < CampaignResult::kMaxNotes) out_.declines.push_back(std::move(o.note));
        break;
      case RunEnd::Inconclusive:
        ++out_.inconclusive;
        if (out_.inconclusive_runs.size() < CampaignResult::kMaxNotes)
          out_.inconclusive_runs.push_back(std::move(o.note));
        break;
      case RunEnd::Failed:
        ++out_.failures;
        if (o_.on_failure) o_.on_failure(*o.failure);
        out_.failed.push_back(std::move(*o.failure));
        if (o_.max_failures > 0 && out_.failures >= o_.max_failures) full_ = true;
        break;
      case RunEnd::Unfinished: break;
    }
    if (o_.progress) o_.progress(out_.runs, total_);
  }

  const CampaignOptions& o_;
  const std::size_t total_;
  std::mutex m_;
  std::map<std::size_t, RunOutcome> pending_;  // finished, waiting for the runs before them
  std::size_t settled_ = 0;                    // runs [0, settled_) are in the result
  std::atomic<bool> full_{false};
  CampaignResult out_;
};

}  // namespace

CampaignResult run_campaign(const AllocateFn& allocate, const CampaignOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto runs = campaign_runs(options);
  std::mutex generator;
  const RunJudge judge(allocate, options, generator);
  Ledger ledger(options, runs.count);
  // No new run starts once the campaign is asked to stop or has its failures; the ledger puts
  // the runs in order, whichever thread ran them.
  const auto threads = parallel::run_indexed(
      runs.count, options.jobs, [&](std::size_t pos) { ledger.finished(pos, judge.run(runs.at(pos))); },
      [&] { return stop_requested(options) || ledger.full(); });
  auto out = ledger.close(stop_requested(options));
  out.threads = threads;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace syncbisim::fuzz
