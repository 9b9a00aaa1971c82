#pragma once
// checker::check() over the ranks of an MPI job (docs/distributed.md): the exhaustive search with
// states partitioned by hash over the ranks. Every rank calls it with the same pair and options.
// It finds what the one-process search finds: the same verdict, state and transition counts,
// violations in the same order with the same (shortest) traces, and the same cut by --max-states.
// Only --max-seconds and --max-memory cut where the clock and the store say, at the end of an
// exchange round (a wide fan-out is expanded in slices over rounds); and a state with more steps
// than its level's keys hold stops the search there, inconclusive, the limit named
// (docs/distributed.md "Limits").
#include <cstddef>
#include <cstdint>

#include "checker/check_result.h"
#include "checker/explorer.h"
#include "checker/frontier.h"
#include "checker/program_pair.h"
#include "distributed/communicator.h"

namespace syncbisim::distributed {

struct DistributedResult {
  checker::CheckResult result;  // complete on rank 0; the others hold the counts only
  int ranks = 1;
  std::uint64_t sent_bytes = 0;  // between ranks, over all ranks (the states, their keys, the ranking)
};

// The states a rank expands between two exchanges, unless told otherwise.
constexpr std::size_t kRoundStates = 16384;

// The frontier over the ranks of an MPI job (checker/frontier.h): each rank owns the states whose
// hash maps to it, a level is expanded in rounds of `round_states` states a rank with an exchange
// of successors after each (docs/distributed.md "Design"). Every rank runs
// checker::check(pair, options, ranks) with the same pair and options; rank 0 reports.
class Ranks final : public checker::Frontier {
 public:
  Ranks(Communicator& comm, std::size_t round_states = kRoundStates) : comm_(comm), round_states_(round_states) {}
  // Collective: every rank's counts, rank 0's violations with their traces.
  checker::CheckResult explore(const semantics::Lockstep& both, const checker::CheckOptions& options) override;
  bool reports() const override;
  bool alone() const override { return false; }
  // After explore(): the bytes sent between ranks, over all ranks.
  std::uint64_t sent_bytes() const { return sent_bytes_; }

 private:
  Communicator& comm_;
  std::size_t round_states_;
  std::uint64_t sent_bytes_ = 0;
};

// checker::check(pair, options, Ranks(comm, round_states)) with the ranks' figures.
// `options.walks` and `options.coverage` are not distributed: the caller offers neither.
// `round_states` changes the memory a round's messages take, never the result.
DistributedResult check(const checker::ProgramPair& pair, const checker::CheckOptions& options, Communicator& comm,
                        std::size_t round_states = kRoundStates);

}  // namespace syncbisim::distributed
