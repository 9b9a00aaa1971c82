#include "checker/detail/random_walks.h"

#include "checker/coverage.h"

#include <random>
#include <unordered_set>

#include "checker/classifier.h"
#include "statespace/stopwatch.h"

namespace syncbisim::checker::detail {

using semantics::Step;

CheckResult random_walks(const semantics::Lockstep& both, const CheckOptions& o) {
  const auto t0 = statespace::Clock::now();
  CheckResult r;
  Classifier classifier(both);
  std::unordered_set<std::uint64_t> distinct;  // for the state count only
  semantics::Steps steps;                      // a range trip's choices as one run, picked from without being built
  std::vector<Step> path;
  std::vector<semantics::Mismatch> mismatches;
  std::string cut;  // a walk's step that ran past the internal-step limit ends that walk only
  for (std::uint64_t w = 0; w < o.walks; ++w) {
    // Each walk has its own stream derived from the seed, so walk w replays alone.
    std::mt19937_64 rng(o.seed * 0x9e3779b97f4a7c15ULL + w);
    auto s = both.initial();
    path.clear();
    for (std::uint64_t d = 0;; ++d) {
      distinct.insert(s.hash());
      steps.clear();
      mismatches.clear();
      both.visible(s, steps, &mismatches);
      classifier.classify(s, steps, mismatches, [&] { return path; });
      if (o.coverage) o.coverage->observe(s);
      if (steps.empty() || d >= o.depth) break;
      // Within a walk too: a walk may be millions of steps deep (docs/checker.md "Search").
      if ((d & 1023) == 1023 && o.max_seconds > 0 && statespace::since(t0) > o.max_seconds) {
        r.limit = statespace::seconds_limit(o.max_seconds);
        break;
      }
      const auto st = steps[std::uniform_int_distribution<std::uint64_t>(0, steps.size() - 1)(rng)];
      try {
        both.apply(s, st);
      } catch (const semantics::InternalStepLimit& e) {
        cut = e.what();
        break;
      }
      path.push_back(st);
      ++r.transitions;
    }
    if (!r.limit.empty() || (o.max_seconds > 0 && statespace::since(t0) > o.max_seconds)) {
      r.limit = statespace::seconds_limit(o.max_seconds);
      break;
    }
  }
  r.exhaustive = false;
  if (r.limit.empty())
    r.limit = "random: " + std::to_string(o.walks) + " walks of at most " + std::to_string(o.depth) + " steps";
  if (!cut.empty()) r.limit += ", " + cut;
  classifier.add_limits(r);
  r.states = distinct.size();
  r.seconds = statespace::since(t0);
  r.violations = std::move(classifier.found());
  r.verdict = verdict_of(r.violations, false);
  return r;
}

}  // namespace syncbisim::checker::detail
