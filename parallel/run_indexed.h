#pragma once
// Runs independent jobs 0..count-1 on `jobs` threads (the calling one included), each job at most
// once; `f(i)` must write only what belongs to job i. Callers collect the results by index, so
// what they report does not depend on which thread finished first (check --batch, stats
// --compare, prove --jobs, a fuzz campaign's --jobs). Below every layer that runs jobs on threads
// (the commands, the prover, the fuzz campaigns), so that they share one loop.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
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
//
// Returns the threads that ran (the calling one included): fewer than workers(count, jobs) when
// the system refused to start more (a process limit, no memory for a stack). The jobs all run
// either way, on the threads there are; a caller says so if it matters (issue 43: no abort).
template <class F, class Stop>
std::size_t run_indexed(std::size_t count, unsigned jobs, F&& f, Stop&& stop) {
  std::atomic<std::size_t> next{0};
  // A job that throws (std::bad_alloc on a thread) stops the others from starting new jobs; the
  // first exception is thrown again on the calling thread once all have joined, never
  // std::terminate from a thread.
  std::mutex failed_mutex;
  std::exception_ptr failed;
  std::atomic<bool> failing{false};
  const auto work = [&](std::size_t w) {
    try {
      for (;;) {
        if (failing.load() || stop()) return;
        const std::size_t i = next.fetch_add(1);
        if (i >= count) return;
        if constexpr (std::is_invocable_v<F&, std::size_t, std::size_t>) f(i, w);
        else f(i);
      }
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failed_mutex);
      if (!failed) failed = std::current_exception();
      failing = true;
    }
  };
  const std::size_t threads = workers(count, jobs);
  std::vector<std::thread> helpers;
  try {
    helpers.reserve(threads - 1);
    for (std::size_t w = 1; w < threads; ++w) helpers.emplace_back(work, w);
  } catch (const std::system_error&) {
    // Run on the threads that started: worker numbers stay below `threads`.
  } catch (const std::bad_alloc&) {
  }
  work(0);
  for (auto& t : helpers) t.join();
  if (failed) std::rethrow_exception(failed);
  return helpers.size() + 1;
}

template <class F>
std::size_t run_indexed(std::size_t count, unsigned jobs, F&& f) {
  return run_indexed(count, jobs, std::forward<F>(f), [] { return false; });
}

}  // namespace syncbisim::parallel
