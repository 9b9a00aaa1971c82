#include "distributed/check.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "checker/classifier.h"
#include "checker/explorer.h"
#include "distributed/detail/level_search.h"
#include "statespace/stopwatch.h"

namespace syncbisim::distributed {

namespace {

using checker::Violation;
using checker::ViolationKey;

// Rank 0 rebuilds a violation from the steps that reach its state: replaying them from the
// initial state and classifying that state as the search did.
Violation replay(const semantics::Lockstep& both, const std::vector<std::uint64_t>& path, const ViolationKey& key) {
  auto s = both.initial();
  std::vector<semantics::Step> trace;
  semantics::Steps steps;
  for (const auto j : path) {
    steps.clear();
    both.visible(s, steps);
    if (j >= steps.size()) throw std::logic_error("distributed: a trace step the state does not have");
    trace.push_back(steps[j]);
    both.apply(s, trace.back());
  }
  steps.clear();
  std::vector<semantics::Mismatch> mismatches;
  both.visible(s, steps, &mismatches);
  checker::Classifier classifier(both);
  classifier.classify(s, steps, mismatches, [&] { return trace; });
  for (auto& v : classifier.found())
    if (checker::key_of(v) == key) return std::move(v);
  throw std::logic_error("distributed: a violation that its replayed trace does not reach");
}

constexpr std::size_t kCandidateWords = 8;

}  // namespace

checker::CheckResult Ranks::explore(const semantics::Lockstep& both, const checker::CheckOptions& options) {
  detail::LevelSearch search(both, options, comm_, round_states_);
  auto found = search.run();
  checker::CheckResult r;
  r.states = found.states;
  r.transitions = found.transitions;
  r.limit = found.limit;
  r.exhaustive = found.limit.empty();
  // Each violation's first state over all ranks: the least (level, place, rank at that state).
  std::vector<std::uint64_t> mine;
  for (const auto& c : found.candidates) {
    const auto& [kind, engine, instr] = c.key;
    mine.insert(mine.end(), {static_cast<std::uint64_t>(kind), engine, instr, c.level, c.place, c.sub,
                             static_cast<std::uint64_t>(comm_.rank()), c.state});
  }
  const auto all = comm_.gather(mine);
  std::vector<std::uint64_t> chosen;  // per violation, in the order found: its kind, engine, instr, rank, state
  if (comm_.rank() == 0) {
    std::map<ViolationKey, std::array<std::uint64_t, kCandidateWords>> first;
    for (std::size_t i = 0; i < all.size(); i += kCandidateWords) {
      const ViolationKey key{static_cast<checker::ViolationKind>(all[i]), static_cast<semantics::EngineId>(all[i + 1]),
                             static_cast<std::uint32_t>(all[i + 2])};
      std::array<std::uint64_t, kCandidateWords> c;
      std::copy(all.begin() + static_cast<std::ptrdiff_t>(i),
                all.begin() + static_cast<std::ptrdiff_t>(i + kCandidateWords), c.begin());
      auto [it, fresh] = first.try_emplace(key, c);
      if (!fresh && std::tie(c[3], c[4], c[5]) < std::tie(it->second[3], it->second[4], it->second[5])) it->second = c;
    }
    std::vector<std::array<std::uint64_t, kCandidateWords>> order;
    for (const auto& [key, c] : first) order.push_back(c);
    std::sort(order.begin(), order.end(),
              [](const auto& a, const auto& b) { return std::tie(a[3], a[4], a[5]) < std::tie(b[3], b[4], b[5]); });
    for (const auto& c : order) chosen.insert(chosen.end(), {c[0], c[1], c[2], c[6], c[7]});
  }
  comm_.broadcast(chosen, 0);
  for (std::size_t i = 0; i < chosen.size(); i += 5) {
    const auto path = search.path_to(static_cast<int>(chosen[i + 3]), static_cast<std::uint32_t>(chosen[i + 4]));
    if (comm_.rank() == 0)
      r.violations.push_back(
          replay(both, path,
                 {static_cast<checker::ViolationKind>(chosen[i]), static_cast<semantics::EngineId>(chosen[i + 1]),
                  static_cast<std::uint32_t>(chosen[i + 2])}));
  }
  // The limits of the spec's own walks, named once (Classifier::add_limits).
  std::string names;
  for (const auto& l : found.limits) names += l + "\n";
  const std::string every = comm_.gather(names);
  std::set<std::string> limits;
  std::istringstream lines(every);
  for (std::string l; std::getline(lines, l);) limits.insert(l);
  for (const auto& l : limits) checker::add_limit(r, l);
  r.bytes = comm_.sum(search.bytes());
  sent_bytes_ = comm_.sum(comm_.sent_bytes());
  return r;  // its verdict: checker::check, for every frontier
}

bool Ranks::reports() const { return comm_.rank() == 0; }

DistributedResult check(const checker::ProgramPair& pair, const checker::CheckOptions& options, Communicator& comm,
                        std::size_t round_states) {
  const auto t0 = statespace::Clock::now();
  Ranks ranks(comm, round_states);
  DistributedResult out;
  out.result = checker::check(pair, options, ranks);
  out.result.seconds = statespace::since(t0);
  out.ranks = comm.size();
  out.sent_bytes = ranks.sent_bytes();
  return out;
}

}  // namespace syncbisim::distributed
