#pragma once
// Runs independent jobs 0..count-1 on `jobs` threads (the calling one included), each job once;
// `f(i)` must write only what belongs to job i. Callers collect the results by index, so what
// they print does not depend on which thread finished first (`check --batch`, `stats --compare`).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace syncbisim::cli {

template <class F>
void run_indexed(std::size_t count, unsigned jobs, F&& f) {
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) f(i);
  };
  std::vector<std::thread> helpers;
  const std::size_t threads = std::min<std::size_t>(std::max(1u, jobs), std::max<std::size_t>(count, 1));
  for (std::size_t j = 1; j < threads; ++j) helpers.emplace_back(work);
  work();
  for (auto& t : helpers) t.join();
}

// Every core, at least one.
inline unsigned every_core() { return std::max(1u, std::thread::hardware_concurrency()); }

// A --jobs or --threads count as given: 0 (the default) means every core.
inline unsigned given_or_every_core(unsigned n) { return n > 0 ? n : every_core(); }

}  // namespace syncbisim::cli
