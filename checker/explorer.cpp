#include "checker/explorer.h"

#include <new>

#include "checker/detail/exhaustive.h"
#include "checker/detail/random_walks.h"
#include "checker/detail/threaded_search.h"
#include "checker/program_pair.h"
#include "statespace/stopwatch.h"

namespace syncbisim::checker {

namespace {
constexpr StateStore kStateStores[] = {StateStore::Flat, StateStore::Tree};
}  // namespace

const char* to_string(StateStore s) {
  switch (s) {
    case StateStore::Flat: return "flat";
    case StateStore::Tree: return "tree";
  }
  return "?";
}

std::optional<StateStore> parse_state_store(const std::string& name) {
  for (const auto s : kStateStores)
    if (name == to_string(s)) return s;
  return std::nullopt;
}

std::string unknown_state_store(const std::string& name) {
  std::string names;
  for (const auto s : kStateStores) names += (names.empty() ? "" : ", ") + std::string(to_string(s));
  return "unknown state store '" + name + "' (" + names + ")";
}

void shorten_traces(const semantics::Lockstep& both, const CheckOptions& options, CheckResult& r) {
  CheckOptions plain;
  plain.reduction = false;
  plain.max_states = 200000;
  plain.max_seconds = options.max_seconds > 0 ? options.max_seconds : 10.0;
  for (auto& v : r.violations) {
    detail::Exhaustive search(both, plain);
    search.target(key_of(v), v.trace.size());
    const auto found = search.run();
    for (const auto& w : found.violations)
      if (key_of(w) == key_of(v) && w.trace.size() < v.trace.size()) v.trace = w.trace;
  }
}

CheckResult check(const semantics::Lockstep& both, const CheckOptions& options) {
  try {
    if (options.walks > 0) return detail::random_walks(both, options);
    // Coverage counts every state it is shown, from one thread (docs/checker.md "Threads").
    const bool threaded = options.threads > 1 && !options.coverage;
    auto r = threaded ? detail::ThreadedSearch(both, options, options.threads).run()
                      : detail::Exhaustive(both, options).run();
    if (options.reduction) shorten_traces(both, options, r);
    return r;
  } catch (const std::bad_alloc&) {
    // The searches keep what they found when an allocation fails inside them; one that fails
    // before or after a search (setting it up, the walks' own records) still ends in a verdict
    // that names the limit, never in an abort.
    CheckResult r;
    r.exhaustive = false;
    r.limit = statespace::allocation_limit();
    r.verdict = Verdict::Inconclusive;
    return r;
  } catch (const semantics::InternalStepLimit& e) {  // met setting up (the initial state) or shortening
    CheckResult r;
    r.exhaustive = false;
    r.limit = e.what();
    r.verdict = Verdict::Inconclusive;
    return r;
  }
}

CheckResult check(const ProgramPair& pair, const CheckOptions& options) {
  auto r = check(pair.lockstep(), options);
  if (!pair.cut().empty()) {
    r.exhaustive = false;
    r.limit = r.limit.empty() ? pair.cut() : r.limit + ", " + pair.cut();
    r.verdict = verdict_of(r.violations, false);
  }
  return r;
}

}  // namespace syncbisim::checker
