#include "checker/frontier.h"

#include "checker/detail/exhaustive.h"
#include "checker/detail/random_walks.h"
#include "checker/detail/threaded_search.h"
#include "checker/program_pair.h"
#include "statespace/search_limit.h"

namespace syncbisim::checker {

namespace {
CheckResult inconclusive(std::string limit) {
  CheckResult r;
  r.exhaustive = false;
  r.limit = std::move(limit);
  r.verdict = Verdict::Inconclusive;
  return r;
}

// Runs `search`; a limit met outside the search proper (an allocation setting it up, shortening,
// the walks' own records; the internal-step limit at the initial state or shortening) ends in an
// inconclusive verdict that names it where the process is alone. The searches keep what they
// found when one is met inside them.
template <class Search>
CheckResult ending_in_a_verdict(bool alone, Search&& search) {
  try {
    return search();
  } catch (...) {
    auto limit = statespace::limit_named_by(std::current_exception());
    if (!limit || !alone) throw;
    return inconclusive(std::move(*limit));
  }
}

CheckResult with_cut(const ProgramPair& pair, CheckResult r) {
  if (!pair.cut().empty()) {
    add_limit(r, pair.cut());
    r.verdict = verdict_of(r.violations, false);
  }
  return r;
}
}  // namespace

CheckResult OneThread::explore(const semantics::Lockstep& both, const CheckOptions& options) {
  return detail::Exhaustive(both, options).run();
}

CheckResult Threads::explore(const semantics::Lockstep& both, const CheckOptions& options) {
  return detail::ThreadedSearch(both, options, threads_).run();
}

CheckResult check(const semantics::Lockstep& both, const CheckOptions& options, Frontier& frontier) {
  return ending_in_a_verdict(frontier.alone(), [&] {
    auto r = frontier.explore(both, options);
    if (options.reduction && frontier.reports()) shorten_traces(both, options, r);
    r.verdict = verdict_of(r.violations, r.exhaustive);
    return r;
  });
}

CheckResult check(const ProgramPair& pair, const CheckOptions& options, Frontier& frontier) {
  return with_cut(pair, check(pair.lockstep(), options, frontier));
}

CheckResult check(const semantics::Lockstep& both, const CheckOptions& options) {
  if (options.walks > 0) return ending_in_a_verdict(true, [&] { return detail::random_walks(both, options); });
  // Coverage counts every state it is shown, from one thread (docs/checker.md "Threads").
  if (options.threads > 1 && !options.coverage) {
    Threads threads(options.threads);
    return check(both, options, threads);
  }
  OneThread one;
  return check(both, options, one);
}

CheckResult check(const ProgramPair& pair, const CheckOptions& options) {
  return with_cut(pair, check(pair.lockstep(), options));
}

}  // namespace syncbisim::checker
