// parallel::run_indexed, which runs check --batch, stats --compare, prove --jobs and the fuzz
// campaigns: every job once, on at most the threads asked for, a worker's index its own, and no
// new job after a stop.
#include <doctest/doctest.h>

#include <atomic>
#include <cstddef>
#include <set>
#include <thread>
#include <vector>

#include "parallel/run_indexed.h"

using syncbisim::parallel::run_indexed;
using syncbisim::parallel::workers;

TEST_CASE("run_indexed: every job exactly once, for any number of threads") {
  for (const unsigned jobs : {0u, 1u, 2u, 3u, 8u})
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{1000}}) {
      INFO("jobs ", jobs, ", count ", count);
      std::vector<std::atomic<int>> runs(count);
      run_indexed(count, jobs, [&](std::size_t i) { runs[i].fetch_add(1); });
      for (const auto& r : runs) CHECK(r.load() == 1);
    }
}

TEST_CASE("run_indexed: workers(count, jobs) threads, each job told its own thread's index") {
  CHECK(workers(10, 0) == 1);
  CHECK(workers(10, 3) == 3);
  CHECK(workers(2, 3) == 2);  // never more threads than jobs
  CHECK(workers(0, 3) == 1);
  constexpr std::size_t count = 400;
  const std::size_t threads = workers(count, 3);
  // Per-worker state (the prover's shared solver): a worker's slot is written by its thread alone.
  std::vector<std::thread::id> owner(threads);
  std::vector<std::size_t> done(threads, 0);
  std::atomic<bool> shared_slot{false}, out_of_range{false};
  run_indexed(count, 3, [&](std::size_t, std::size_t w) {
    if (w >= threads) {
      out_of_range = true;
      return;
    }
    if (done[w]++ == 0) owner[w] = std::this_thread::get_id();
    else if (owner[w] != std::this_thread::get_id()) shared_slot = true;
  });
  CHECK(!out_of_range);
  CHECK(!shared_slot);
  std::size_t total = 0;
  for (const auto d : done) total += d;
  CHECK(total == count);
}

TEST_CASE("run_indexed: once stop() is true no new job starts") {
  constexpr std::size_t count = 10000;
  std::atomic<std::size_t> started{0};
  std::atomic<bool> stop{false};
  run_indexed(
      count, 2,
      [&](std::size_t i) {
        started.fetch_add(1);
        if (i == 10) stop = true;
      },
      [&] { return stop.load(); });
  // Job 10 set it; each thread may have taken one more job before it asked again.
  CHECK(started.load() >= 11);
  CHECK(started.load() < count);
  std::atomic<std::size_t> none{0};
  run_indexed(count, 2, [&](std::size_t) { none.fetch_add(1); }, [] { return true; });
  CHECK(none.load() == 0);
}
