#pragma once
// Runs independent jobs 0..count-1 on `jobs` threads (the calling one included), each job at most
// once; `f(i)` must write only what belongs to job i. Callers collect the results by index, so
// what they report does not depend on which thread finished first (check --batch, stats
// --compare, prove --jobs, a fuzz campaign's --jobs). Below every layer that runs jobs on threads
// (the commands, the prover, the fuzz campaigns), so that they share one loop.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace syncbisim::parallel {

// The threads run_indexed starts for `count` jobs (the calling one included): at most `jobs`, at
// least one, never more than the jobs.
inline std::size_t workers(std::size_t count, unsigned jobs) {
  return std::min<std::size_t>(std::max(1u, jobs), std::max<std::size_t>(count, 1));
}

// `f(i)`, or `f(i, w)` with w in [0, workers(count, jobs)) the thread running job i, for state a
// thread keeps from one job to its next (the prover's shared solver). `stop()` is asked before
// each job: once it is true no new job starts, and those running finish (a campaign's
// max-failures, an interruption).
template <class F, class Stop>
void run_indexed(std::size_t count, unsigned jobs, F&& f, Stop&& stop) {
  std::atomic<std::size_t> next{0};
  const auto work = [&](std::size_t w) {
    for (;;) {
      if (stop()) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      if constexpr (std::is_invocable_v<F&, std::size_t, std::size_t>) f(i, w);
      else f(i);
    }
  };
  const std::size_t threads = workers(count, jobs);
  std::vector<std::thread> helpers;
  for (std::size_t w = 1; w < threads; ++w) helpers.emplace_back(work, w);
  work(0);
  for (auto& t : helpers) t.join();
}

template <class F>
void run_indexed(std::size_t count, unsigned jobs, F&& f) {
  run_indexed(count, jobs, std::forward<F>(f), [] { return false; });
}

}  // namespace syncbisim::parallel
