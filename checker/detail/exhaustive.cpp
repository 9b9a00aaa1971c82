#include "checker/detail/exhaustive.h"

#include "checker/coverage.h"

#include <algorithm>
#include <chrono>
#include <new>

#include "checker/detail/trace_step.h"
#include "statespace/search_limit.h"
#include "statespace/stopwatch.h"

namespace syncbisim::checker::detail {

using semantics::Step;

Exhaustive::Exhaustive(const semantics::Lockstep& both, const CheckOptions& o)
    : both_(both),
      opt_(o),
      codec_(both),
      classifier_(both),
      visited_(codec_.parts(), o.state_store),
      expander_(both, codec_, parts_, o.reduction),
      met_(visited_.key_words()) {}

CheckResult Exhaustive::run() {
  const auto t0 = statespace::Clock::now();
  auto last_progress = t0;
  CheckResult r;
  enqueue(expander_.encode(both_.initial()), kNoParent);
  flush();
  std::uint64_t next = 0;
  std::uint64_t depth = 0, level_end = 1;  // BFS level of `next`; the level ends before level_end
  auto search = [&] {
    for (;; ++next) {
      // Successors wait in pending_ until the search needs them: when the queue runs short or a
      // breadth-first level ends.
      if (next + 1 >= parents_.size() || next == level_end) flush();
      if (next >= parents_.size()) break;
      if (next == level_end) {
        ++depth;
        level_end = parents_.size();
      }
      if ((next & 1023) == 0) {
        expander_.memo().budget(parents_.size() * statespace::kMemoBytesPerState);
        const double elapsed = statespace::since(t0);
        if (auto limit =
                statespace::resource_limit_passed(opt_.max_seconds, opt_.max_memory, t0, [&] { return bytes(); })) {
          r.limit = std::move(*limit);
          break;
        }
        if (opt_.progress && std::chrono::duration<double>(statespace::Clock::now() - last_progress).count() >= 2.0) {
          last_progress = statespace::Clock::now();
          opt_.progress(Progress{parents_.size(), parents_.size() - next, elapsed, bytes(), depth});
        }
      }
      bool hit = false, deep = false;
      const bool whole = expand(static_cast<std::uint32_t>(next), depth, t0, r, hit, deep);
      if (hit) break;
      if (deep) continue;
      if (!whole) {
        ++next;  // the state was cut short: not exhaustive
        break;
      }
      if (opt_.max_states > 0) flush();
      if (opt_.max_states > 0 && parents_.size() >= opt_.max_states && next + 1 < parents_.size()) {
        r.limit = "max-states " + std::to_string(opt_.max_states);
        ++next;
        break;
      }
    }
  };
  try {
    search();
  } catch (...) {
    const auto limit = statespace::limit_named_by(std::current_exception());
    if (!limit) throw;
    pending_.clear();  // a limit like the others: what was found is kept
    pending_keys_.clear();
    added_ = 0;
    r.limit = *limit;
  }
  flush();
  r.exhaustive = next >= parents_.size() && r.limit.empty();
  classifier_.add_limits(r);
  r.states = parents_.size();
  r.seconds = statespace::since(t0);
  r.bytes = bytes();
  r.violations = std::move(classifier_.found());
  r.verdict = verdict_of(r.violations, r.exhaustive);
  return r;
}

bool Exhaustive::expand(std::uint32_t id, std::uint64_t depth, statespace::Clock::time_point t0, CheckResult& r,
                        bool& hit, bool& deep) {
  const std::uint32_t* t = visited_.tuple(id);
  visited_.prefetch_tuple(id + 1);  // the tree's rows of the next state arrive while this one is expanded
  const auto classify = [&](const semantics::LockstepState& s, const semantics::Steps& steps,
                            std::vector<semantics::Mismatch>& mismatches) {
    classifier_.classify(s, steps, mismatches, [&] { return trace_to(id); });
    if (opt_.coverage) opt_.coverage->observe(s);
    if (!target_) return true;
    for (const auto& v : classifier_.found()) hit = hit || key_of(v) == *target_;
    deep = !hit && depth >= max_depth_;
    return !hit && !deep;
  };
  // One state may have billions of successors (a range trip's choices: semantics/steps.h), so the
  // limits are checked within its fan-out too (docs/checker.md "Search"): max-states as soon as
  // the limit-th state is found and steps are left, time and memory every statespace::kLimitStride successors.
  std::uint64_t built = 0;
  const auto sink = [&](const std::vector<std::uint32_t>& successor, std::uint64_t k) {
    enqueue(successor, id);
    ++built;
    const bool more = k + 1 < expander_.count();
    if (opt_.max_states > 0 && parents_.size() + waiting() >= opt_.max_states) {
      flush();
      if (more && parents_.size() >= opt_.max_states) {
        r.limit = "max-states " + std::to_string(opt_.max_states);
        return false;
      }
    }
    if (built % statespace::kLimitStride == 0 && more) {
      if (auto limit =
              statespace::resource_limit_passed(opt_.max_seconds, opt_.max_memory, t0, [&] { return bytes(); })) {
        r.limit = std::move(*limit);
        return false;
      }
    }
    return true;
  };
  const bool whole = expander_.expand(t, classify, sink);
  r.transitions += built;
  return whole;
}

void Exhaustive::enqueue(const std::vector<std::uint32_t>& tuple, std::uint32_t parent) {
  // The state set's slot for this key is fetched now and looked at kWindow successors later
  // (or at the next flush()): the cache miss overlaps building them. A tree's halves are
  // interned now (their tables are small and mostly hit), its root later. Ids, parents and levels
  // are those of adding each successor at once: they are added in the order they were built, and
  // before the search reads the queue past what is added (run() flushes first).
  const std::size_t words = visited_.key_words();
  const std::size_t at = pending_keys_.size();
  pending_keys_.resize(at + words);
  const std::uint64_t h = visited_.key_of(tuple.data(), pending_keys_.data() + at);
  if (met_.find(pending_keys_.data() + at, h) != statespace::RowCache::kNone) {
    pending_keys_.resize(at);
    return;
  }
  visited_.prefetch(h);
  pending_.push_back(Pending{h, parent});
  if (waiting() > kWindow) add(added_++);
  if (pending_.size() >= kMaxPending) flush();
}

void Exhaustive::add(std::size_t k) {
  const Pending& p = pending_[k];
  const std::uint32_t* key = pending_keys_.data() + k * visited_.key_words();
  const auto [id, fresh] = visited_.insert_key(key, p.hash);
  met_.put(key, p.hash, id);
  if (fresh) parents_.push_back(p.parent);
}

void Exhaustive::flush() {
  for (; added_ < pending_.size(); ++added_) add(added_);
  pending_.clear();
  pending_keys_.clear();
  added_ = 0;
}

std::vector<Step> Exhaustive::trace_to(std::uint32_t id) const {
  std::vector<std::uint32_t> path;
  for (std::uint32_t cur = id; cur != kNoParent; cur = parents_[cur]) path.push_back(cur);
  std::reverse(path.begin(), path.end());
  return trace_along(both_, codec_, parts_, path, [&](std::uint32_t state) { return visited_.tuple(state); });
}

std::uint64_t Exhaustive::bytes() const {
  return parts_.bytes() + visited_.bytes() + parents_.bytes() + expander_.memo().bytes() + met_.bytes();
}

}  // namespace syncbisim::checker::detail
