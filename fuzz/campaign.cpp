#include "fuzz/campaign.h"

#include <algorithm>
#include <chrono>

#include "model/index.h"

namespace syncbisim::fuzz {

const char* to_string(SpecMix m) {
  switch (m) {
    case SpecMix::Allocatable: return "allocatable";
    case SpecMix::Arbitrary: return "arbitrary";
    case SpecMix::Mixed: return "mixed";
  }
  return "?";
}

std::optional<SpecMix> parse_spec_mix(const std::string& s) {
  for (auto m : {SpecMix::Allocatable, SpecMix::Arbitrary, SpecMix::Mixed})
    if (s == to_string(m)) return m;
  return std::nullopt;
}

namespace {
// SplitMix64's finalizer: a fixed bijection that spreads nearby inputs over the whole range.
std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

std::uint64_t run_seed(std::uint64_t campaign_seed, std::uint64_t run) { return mix64(mix64(campaign_seed) ^ run); }

generators::SpecGenOptions campaign_spec_options(bool allocatable_only) {
  generators::SpecGenOptions o;
  o.min_engines = 2;  // synchronization needs two engines
  o.max_engines = 3;
  o.max_depth = 2;
  o.max_trip = 3;
  o.max_top_stmts = 4;
  o.max_body_stmts = 3;
  o.max_items = 2;
  o.max_deps = 6;
  o.allocatable_only = allocatable_only;
  o.acyclic = true;
  o.divergent = false;
  o.extras = false;
  return o;
}

RunSpec spec_for_run(std::uint64_t campaign_seed, std::uint64_t run, SpecMix mix, int max_size) {
  const std::uint64_t seed = run_seed(campaign_seed, run);
  RunSpec out;
  out.allocatable_gen = mix == SpecMix::Allocatable || (mix == SpecMix::Mixed && (seed >> 63) == 0);
  // Sizes in the upper half: RapidCheck's lengths are skewed towards short at every size, and a
  // near-empty spec tests nothing.
  const int lo = std::max(1, max_size / 2);
  out.size = lo + static_cast<int>((seed >> 32) % static_cast<std::uint64_t>(std::max(1, max_size - lo + 1)));
  out.spec = generators::gen_spec(campaign_spec_options(out.allocatable_gen))(rc::Random(seed), out.size).value();
  return out;
}

CampaignResult run_campaign(const AllocateFn& allocate, const CampaignOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  CampaignResult out;
  const std::uint64_t k = options.shard_count == 0 ? 1 : options.shard_count;
  CaseOptions check;
  check.max_states = options.max_states;
  check.policy = options.exact ? Counts::AllOnAllocatable : Counts::UnderSyncOnly;
  ShrinkOptions shrink = options.shrink;
  shrink.check = check;
  for (std::uint64_t r = options.start; r < options.start + options.runs; ++r) {
    if (r % k != options.shard_index) continue;
    if (options.max_failures > 0 && out.failures >= options.max_failures) break;
    ++out.runs;
    RunSpec rs;
    try {
      rs = spec_for_run(options.seed, r, options.specs, options.max_size);
    } catch (const std::exception&) {  // a generator that gave up (rc::GenerationFailure)
      ++out.skipped;
      continue;
    }
    RunFailure f;
    f.run = r;
    f.seed = run_seed(options.seed, r);
    f.spec = rs.spec;
    const auto ix = model::ProgramIndex::build(rs.spec);
    if (!ix) {  // the generator promises valid specs: a bug of its own, reported as such
      f.what = "generator gave an invalid spec: " + ix.error().to_string();
      out.failed.push_back(std::move(f));
      ++out.failures;
      continue;
    }
    auto impl = allocate(rs.spec, *ix);
    if (!impl) {
      f.what = "allocation failed: " + impl.error().to_string();
      out.failed.push_back(std::move(f));
      ++out.failures;
      continue;
    }
    f.impl = *impl;
    auto result = check_case(rs.spec, *impl, check);
    if (!result.invalid.empty()) {
      f.what = "the allocation is not a valid impl of its spec: " + result.invalid;
      out.failed.push_back(std::move(f));
      ++out.failures;
    } else if (result.failure) {
      f.what = result.failure->to_string();
      model::Program spec = rs.spec, written = *impl;
      if (options.minimize) {
        auto s = fuzz::shrink(rs.spec, std::nullopt, &allocate, result.failure, shrink);
        if (s) {
          spec = s->spec;
          written = s->impl;
          f.shrunk = std::move(*s);
        }
      }
      CaseOptions traced = check;
      traced.want_traces = true;
      auto final_check = check_case(spec, written, traced);
      f.traces = std::move(final_check.traces);
      f.report = std::move(final_check.report);
      out.failed.push_back(std::move(f));
      ++out.failures;
    } else if (!result.check.exhaustive) {
      ++out.inconclusive;
    } else {
      ++out.passed;
    }
    if (options.progress) options.progress(out.runs, (options.runs + k - 1 - options.shard_index % k) / k);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace syncbisim::fuzz
