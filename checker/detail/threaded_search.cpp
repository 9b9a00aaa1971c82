#include "checker/detail/threaded_search.h"

#include <algorithm>
#include <new>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "checker/detail/trace_step.h"
#include "parallel/threads_refused.h"
#include "statespace/row_cache.h"
#include "statespace/search_limit.h"

namespace syncbisim::checker::detail {

using semantics::Step;

// A thread's share: its own working state and step memo (the part table and the memo's table
// are shared: statespace/memo_table.h), its own record of the violations it met (merged in
// breadth-first order at the end), its reserved storage ids and the keys it made least in this
// level.
struct ThreadedSearch::Worker {
  // `halves`: the tree store's, or null (the flat store: no cache of halves is made).
  Worker(const semantics::Lockstep& both, const statespace::StateCodec& codec, statespace::PartTable& parts,
         bool reduction, const statespace::SharedHalves* halves, std::size_t width)
      : expander(both, codec, parts, reduction), classifier(both), met(width) {
    if (!halves) return;
    cache.emplace(*halves);
    unfolded.resize(codec.parts());
  }

  statespace::Expander expander;
  Classifier classifier;
  struct Found {
    std::uint64_t at;  // breadth-first id of the state the violation was met at
    std::uint32_t id;  // its storage id
  };
  std::vector<Found> found;                     // by classifier.found()
  std::map<std::string, std::uint64_t> limits;  // each limit the classifier named, first met at
  statespace::SharedStates::Ids ids;
  // With the tree store: this thread's cache of halves, the tuple of the state it expands, and
  // the root pair of the successor it inserts.
  std::optional<statespace::SharedHalves::Cache> cache;
  std::vector<std::uint32_t> unfolded;
  std::uint32_t root[statespace::SharedHalves::kRootWidth] = {};
  statespace::SharedStates::Views views;  // renewed at the start of each level
  std::vector<Claim> claims;
  std::atomic<std::size_t> claimed{0};  // claims.size(), for thread 0's progress line
  std::uint64_t transitions = 0;
  std::uint64_t added = 0;        // states this thread added to the set
  std::uint64_t level_added = 0;  // `added` when the level started
  // Successors not yet inserted, their slots prefetched (as Exhaustive's).
  struct Pending {
    std::uint64_t hash, key;
  };
  static constexpr std::size_t kMaxPending = 16;
  std::vector<Pending> pending;
  std::vector<std::uint32_t> pending_tuples;
  // The states this thread met last (their stored tuples, with their ids): see enqueue().
  statespace::RowCache met;
};

ThreadedSearch::ThreadedSearch(const semantics::Lockstep& both, const CheckOptions& o, unsigned threads,
                               std::size_t chunk)
    : both_(both),
      opt_(o),
      threads_(std::max(1U, threads)),
      chunk_(std::max<std::size_t>(1, chunk)),
      codec_(both),
      halves_(o.state_store == StateStore::Tree
                  ? std::optional<statespace::SharedHalves>(std::in_place, codec_.parts(), threads_)
                  : std::nullopt),
      states_(halves_ ? statespace::SharedHalves::kRootWidth : codec_.parts(), threads_),
      workers_(threads_),
      barrier_(threads_) {}

void ThreadedSearch::make_worker(unsigned w) {
  workers_[w] =
      std::make_unique<Worker>(both_, codec_, parts_, opt_.reduction, halves_ ? &*halves_ : nullptr, states_.width());
  workers_[w]->expander.memo().share(memo_, memo_contexts_);
}

ThreadedSearch::~ThreadedSearch() = default;

CheckResult ThreadedSearch::run() {
  t0_ = statespace::Clock::now();
  make_worker(0);
  Worker& first = *workers_[0];
  const std::uint32_t* initial = stored(first, first.expander.encode(both_.initial()));
  const auto root = states_.insert(initial, states_.hash(initial), 0, first.ids, first.views);
  states_.set_parent(root.id, statespace::SharedStates::kNone);
  level_ = {root.id};
  first_ = 0;
  found_ = 1;
  states_.begin_level();
  first.ids = {};
  start_level();
  std::vector<std::thread> helpers;
  for (unsigned w = 1; w < threads_; ++w) {
    try {
      helpers.emplace_back([this, w] { work(w); });
    } catch (const std::system_error& e) {
      // The system refused a thread (a process limit): the threads started meet error_ at the
      // first barrier and leave; the caller gets one clear error, never an abort (issue 43).
      {
        const std::lock_guard<std::mutex> lock(limit_mutex_);
        if (!error_)
          error_ = std::make_exception_ptr(
              parallel::ThreadsRefused(std::to_string(w) + " of " + std::to_string(threads_) +
                                       " threads started; the system refused the next (" + e.what() + ")"));
      }
      for (unsigned missing = w; missing < threads_; ++missing) barrier_.arrive_and_drop();
      break;
    }
  }
  work(0);
  for (auto& h : helpers) h.join();
  if (error_) std::rethrow_exception(error_);
  return result();
}

void ThreadedSearch::work(unsigned w) {
  // A helper makes its own share on its own thread: the allocator then serves the small buffers
  // its thread writes on every successor (the working state, the tuple being built, the memo's
  // counts) from that thread's memory. Made on thread 0, the two threads' buffers sat side by
  // side in cache lines both wrote, and each write took the line from the other core (measured
  // in docs/checker.md "Threads").
  if (w > 0) {
    try {
      make_worker(w);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(limit_mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
  barrier_.arrive_and_wait();  // every share is made (or error_ is set)
  if (error_) return;
  if (w == 0) bytes_fixed_ = exact_bytes() - states_.bytes();
  Worker& me = *workers_[w];
  for (;;) {
    // A level of at most one chunk gives the other threads nothing to take: thread 0 searches
    // such levels alone while they wait at the barrier, which saves four barriers a level (a
    // search of one state per level, as a constant trip of 2^32-1, otherwise spends its time in
    // them). One thread taking every chunk is one of the timings, so the results are the same.
    if (w == 0)
      while (!done_ && level_.size() <= chunk_) {
        expand_level(me);
        settle_claims(me);
        set_parents(me);
        make_room(0, 1);
        end_level_or_stop();
      }
    barrier_.arrive_and_wait();  // the level is published, or done_
    if (done_) return;
    expand_level(me);
    barrier_.arrive_and_wait();  // every successor of the level is in the set
    settle_claims(me);
    barrier_.arrive_and_wait();  // every key is read: the parents may take their place
    set_parents(me);
    make_room(w, threads_);  // every thread grows its share of the partitions
    barrier_.arrive_and_wait();
    if (w == 0) end_level_or_stop();
  }
}

void ThreadedSearch::expand_level(Worker& me) {
  try {
    // The memo's room is shared out among the threads that take chunks of this level.
    me.expander.memo().allow(memo_.room() / (level_.size() <= chunk_ ? 1 : threads_));
    me.level_added = me.added;
    states_.look(me.views);
    while (!stop_.load(std::memory_order_relaxed) && !enough_.load(std::memory_order_relaxed)) {
      const std::size_t c = next_chunk_.fetch_add(chunk_, std::memory_order_relaxed);
      if (c >= level_.size() || c / chunk_ > last_chunk_.load(std::memory_order_relaxed)) break;
      const std::uint64_t added = me.added;
      const bool whole = expand(me, c / chunk_, c, std::min(level_.size(), c + chunk_));
      if (opt_.max_states > 0) {
        flush(me);
        chunk_done(c / chunk_, me.added - added);
      }
      check_limits(me);
      if (!whole) break;
    }
    flush(me);
  } catch (...) {
    me.pending.clear();
    me.pending_tuples.clear();
    if (const auto limit = statespace::limit_named_by(std::current_exception())) {
      stop(*limit);  // a limit like the others: inconclusive, what was found kept
      return;
    }
    const std::lock_guard<std::mutex> lock(limit_mutex_);
    if (!error_) error_ = std::current_exception();
    stop_ = true;
  }
}

void ThreadedSearch::set_parents(const Worker& me) {
  for (const auto& c : me.claims) states_.set_parent(c.id, level_[(c.key >> 32) - first_]);
}

void ThreadedSearch::make_room(unsigned share, unsigned shares) {
  if (stop_.load(std::memory_order_relaxed)) return;
  // The claims kept are the next level. The one after it is guessed to grow from it as it grew
  // from this one, at most twice: a guess too small leaves the growth to the inserts, one too
  // large brings a doubling forward that the states would soon have needed.
  std::uint64_t next = 0;
  for (const auto& w : workers_) next += w->claims.size();
  const double growth = std::min(2.0, static_cast<double>(next) / static_cast<double>(level_.size()));
  auto expected = static_cast<std::uint64_t>(static_cast<double>(next) * growth);
  if (opt_.max_states > 0) expected = std::min(expected, opt_.max_states - std::min(opt_.max_states, found_ + next));
  if (share + 1 == shares) settle_memo(growth, found_ + next);  // one thread, the others growing partitions meanwhile
  // Growing ahead is only a help: if it cannot be had, the inserts grow the partitions when they
  // must, or fail there and end the search naming the memory limit.
  try {
    states_.make_room(expected, share, shares);
  } catch (const std::bad_alloc&) {}
}

void ThreadedSearch::settle_memo(double growth, std::uint64_t states) {
  std::size_t added = 0, wanted = 0;
  for (const auto& w : workers_) {
    added += w->expander.memo().inserted();
    wanted += w->expander.memo().inserted() + w->expander.memo().refused();
    w->expander.memo().allow(0);  // a thread that takes no chunk of the next level inserts nothing
  }
  const auto expected = static_cast<std::size_t>(static_cast<double>(wanted) * std::max(1.0, growth));
  // The budget of a single-threaded search's memo (as many bytes per state found), for all threads together.
  try {
    memo_.settle(added, expected, states * statespace::kMemoBytesPerState);
  } catch (const std::bad_alloc&) {  // the table stays as it was, and stays half full at most
  }
}

void ThreadedSearch::end_level_or_stop() {
  // An exception must not leave thread 0 (std::terminate): it ends the search.
  try {
    end_level();
  } catch (const std::bad_alloc&) {
    stop(statespace::allocation_limit());
    done_ = true;
  } catch (...) {
    const std::lock_guard<std::mutex> lock(limit_mutex_);
    if (!error_) error_ = std::current_exception();
    done_ = true;
  }
}

bool ThreadedSearch::expand(Worker& me, std::size_t chunk, std::size_t first, std::size_t last) {
  for (std::size_t x = first; x < last; ++x)
    if (!expand_state(me, chunk, x)) return false;
  return true;
}

bool ThreadedSearch::expand_state(Worker& me, std::size_t chunk, std::size_t x) {
  const std::uint64_t g = first_ + x;
  const std::uint32_t id = level_[x];
  const auto classify = [&](const semantics::LockstepState& s, const semantics::Steps& steps,
                            std::vector<semantics::Mismatch>& mismatches) {
    const std::size_t violations = me.classifier.found().size(), limits = me.classifier.limits().size();
    // Traces are found at the end, for the first state of each violation among all threads.
    me.classifier.classify(s, steps, mismatches, [] { return std::vector<Step>{}; });
    for (std::size_t k = violations; k < me.classifier.found().size(); ++k) me.found.push_back({g, id});
    if (me.classifier.limits().size() != limits)
      for (const auto& l : me.classifier.limits()) me.limits.emplace(l, g);  // keeps the first
    return true;
  };
  me.expander.start(tuple_of(me, id), classify);
  const std::uint64_t n = me.expander.count();
  if (!fanout_of_.empty()) fanout_of_[x] = n;
  // As Exhaustive::expand: one state may have billions of successors (a range trip's choices),
  // so the limits are looked at within its fan-out. With max-states: every state this thread
  // added in this level keeps a key at most the one it was added with, so once it has added as
  // many as the limit still lets in, the cut (end_level()) lies at or before this step: neither
  // this thread nor any thread in a later chunk needs to go on.
  const std::uint64_t room = opt_.max_states > found_ ? opt_.max_states - found_ : 0;
  bool cut = false;
  const std::uint64_t j = me.expander.successors(0, [&](const std::vector<std::uint32_t>& successor, std::uint64_t k) {
    enqueue(me, successor, g << 32 | k);
    ++me.transitions;
    if (opt_.max_states > 0 && me.added - me.level_added + me.pending.size() >= room) {
      flush(me);
      if (me.added - me.level_added >= room) {
        std::size_t c = last_chunk_.load(std::memory_order_relaxed);
        while (chunk < c && !last_chunk_.compare_exchange_weak(c, chunk, std::memory_order_relaxed)) {}
        cut = true;
        return false;
      }
    }
    if ((k + 1) % statespace::kLimitStride == 0 && k + 1 < n) {
      check_limits(me);
      if (stop_.load(std::memory_order_relaxed) || enough_.load(std::memory_order_relaxed) ||
          chunk > last_chunk_.load(std::memory_order_relaxed)) {
        cut = true;
        return false;
      }
    }
    if (k + 1 == kMaxStep && k + 1 < n) {  // the next step's index would not fit a key's low half
      stop("successors " + std::to_string(kMaxStep) + " of one state");
      return false;
    }
    return true;
  });
  if (!steps_of_.empty()) steps_of_[x] = static_cast<std::uint32_t>(j);
  return !cut && j == n;
}

const std::uint32_t* ThreadedSearch::stored(Worker& me, const std::vector<std::uint32_t>& tuple) {
  if (!halves_) return tuple.data();
  halves_->fold(tuple.data(), me.root, *me.cache);
  return me.root;
}

const std::uint32_t* ThreadedSearch::tuple_of(Worker& me, std::uint32_t id) {
  if (!halves_) return states_.tuple(id);
  halves_->unfold(states_.tuple(id), me.unfolded.data(), *me.cache);
  return me.unfolded.data();
}

void ThreadedSearch::enqueue(Worker& me, const std::vector<std::uint32_t>& tuple, std::uint64_t key) {
  const std::uint32_t* t = stored(me, tuple);
  const std::uint64_t h = states_.hash(t);
  // A state this thread met before (inserted or found, in this level or an earlier one) is known,
  // and insert() would not claim it: if it is of this level, its key is already at most the key
  // this thread met it with, and this thread's keys only grow (it takes its chunks, and their
  // states, in increasing order). So it needs no look in the shared set, whose lines the other
  // threads write (about half of the successors on the stress run).
  if (me.met.find(t, h) != statespace::RowCache::kNone) return;
  states_.prefetch(h, me.views);
  me.pending_tuples.insert(me.pending_tuples.end(), t, t + states_.width());
  me.pending.push_back(Worker::Pending{h, key});
  if (me.pending.size() >= Worker::kMaxPending) flush(me);
}

void ThreadedSearch::flush(Worker& me) {
  const std::size_t width = states_.width();
  for (std::size_t k = 0; k < me.pending.size(); ++k) {
    const auto& p = me.pending[k];
    const auto in = states_.insert(me.pending_tuples.data() + k * width, p.hash, p.key, me.ids, me.views);
    me.met.put(me.pending_tuples.data() + k * width, p.hash, in.id);
    if (in.claimed) me.claims.push_back(Claim{p.key, in.id});
    me.added += in.added;
  }
  me.claimed.store(me.claims.size(), std::memory_order_relaxed);
  me.pending.clear();
  me.pending_tuples.clear();
}

void ThreadedSearch::stop(const std::string& limit) {
  const std::lock_guard<std::mutex> lock(limit_mutex_);
  if (limit_.empty()) limit_ = limit;
  stop_ = true;
}

void ThreadedSearch::check_limits(Worker& me) {
  const double elapsed = statespace::since(t0_);
  if (const auto limit =
          statespace::resource_limit_passed(opt_.max_seconds, opt_.max_memory, t0_, [&] { return bytes(); }))
    stop(*limit);
  if (&me != workers_[0].get() || !opt_.progress || elapsed - last_progress_ < 2.0) return;
  last_progress_ = elapsed;
  std::size_t fresh = 0;  // a close count: the other threads' lists grow meanwhile
  for (const auto& w : workers_) fresh += w->claimed.load(std::memory_order_relaxed);
  const std::size_t expanded = std::min(next_chunk_.load(std::memory_order_relaxed), level_.size());
  opt_.progress(Progress{found_ + fresh, level_.size() - expanded + fresh, elapsed, bytes(), depth_});
}

void ThreadedSearch::start_level() {
  last_chunk_ = SIZE_MAX;
  if (opt_.max_states == 0) return;
  steps_of_.assign(level_.size(), 0);
  fanout_of_.assign(level_.size(), 0);
  chunk_added_.assign((level_.size() + chunk_ - 1) / chunk_, -1);
  prefix_ = 0;
  prefix_added_ = 0;
  enough_ = false;
}

void ThreadedSearch::chunk_done(std::size_t c, std::uint64_t added) {
  // A state added while expanding chunk c has its least parent in c or before; so the chunks
  // 0 .. prefix_ - 1 give at least prefix_added_ states of the next level. If that reaches the
  // limit, the single-threaded search stops at a state in those chunks (end_level() finds it).
  const std::lock_guard<std::mutex> lock(prefix_mutex_);
  chunk_added_[c] = static_cast<std::int64_t>(added);
  while (prefix_ < chunk_added_.size() && chunk_added_[prefix_] >= 0) prefix_added_ += chunk_added_[prefix_++];
  if (prefix_ < chunk_added_.size() && found_ + prefix_added_ >= opt_.max_states) enough_ = true;
}

void ThreadedSearch::settle_claims(Worker& me) {
  // A claim is the state's first reach if no thread lowered its key afterwards.
  std::size_t kept = 0;
  for (const auto& c : me.claims) {
    if (states_.key(c.id) == c.key) me.claims[kept++] = c;
  }
  me.claims.resize(kept);
}

void ThreadedSearch::end_level() {
  // Each thread's claims are in key order; all of them in key order are the next level.
  std::vector<Claim> next;
  std::size_t total = 0;
  for (const auto& w : workers_) total += w->claims.size();
  next.reserve(total);
  std::vector<std::size_t> at(workers_.size(), 0);
  for (;;) {
    std::size_t best = workers_.size();
    for (std::size_t k = 0; k < workers_.size(); ++k) {
      const auto& c = workers_[k]->claims;
      if (at[k] < c.size() && (best == workers_.size() || c[at[k]].key < workers_[best]->claims[at[best]].key))
        best = k;
    }
    if (best == workers_.size()) break;
    next.push_back(workers_[best]->claims[at[best]++]);
  }
  for (auto& w : workers_) {
    w->claims.clear();
    w->claimed = 0;
    w->ids = {};
  }
  // The single-threaded search stops after expanding state x once it has found max-states
  // states and some are left to expand; by then it has found the states whose first parent is
  // x or before.
  if (opt_.max_states > 0 && !stop_ && (found_ >= opt_.max_states || next.size() >= opt_.max_states - found_)) {
    // The single-threaded search stops as soon as it has found max-states states if the state it
    // expands has steps left (Exhaustive::expand_all): at the state with the m-th least key, or,
    // when the states found before the level reach the limit (max-states 1), at the first step.
    const std::uint64_t key = found_ >= opt_.max_states ? first_ << 32 : next[opt_.max_states - found_ - 1].key;
    const std::size_t x = (key >> 32) - first_;
    const std::uint64_t j = key & 0xffffffffU;
    if (j + 1 < fanout_of_[x]) {
      std::size_t m = 0;
      while (m < next.size() && next[m].key <= key) ++m;
      next.resize(m);
      last_ = first_ + x;
      transitions_cut_ += steps_of_[x] - (j + 1);
      for (std::size_t y = x + 1; y < level_.size(); ++y) transitions_cut_ += steps_of_[y];
      limit_ = "max-states " + std::to_string(opt_.max_states);
      done_ = true;
    }
  }
  if (opt_.max_states > 0 && !stop_ && !done_) {  // enough_ stopped no chunk the cut needs
    std::size_t m = 0;
    for (std::size_t x = 0; x < level_.size(); ++x) {
      while (m < next.size() && (next[m].key >> 32) - first_ <= x) ++m;
      const std::uint64_t found = found_ + m;
      if (found >= opt_.max_states && first_ + x + 1 < found) {
        next.resize(m);
        last_ = first_ + x;
        for (std::size_t y = x + 1; y < level_.size(); ++y) transitions_cut_ += steps_of_[y];
        limit_ = "max-states " + std::to_string(opt_.max_states);
        done_ = true;
        break;
      }
    }
    if (enough_ && !done_) throw std::logic_error("threaded search: max-states cut not found in the expanded chunks");
  }
  level_.resize(next.size());
  for (std::size_t k = 0; k < next.size(); ++k) level_[k] = next[k].id;
  first_ = found_;
  found_ += next.size();
  if (stop_ || done_ || level_.empty()) {
    done_ = true;
    return;
  }
  states_.begin_level();
  next_chunk_ = 0;
  ++depth_;
  start_level();
  bytes_fixed_ = exact_bytes() - states_.bytes();
}

CheckResult ThreadedSearch::result() {
  CheckResult r;
  r.limit = limit_;
  r.exhaustive = limit_.empty();
  r.states = found_;
  for (const auto& w : workers_) r.transitions += w->transitions;
  r.transitions -= transitions_cut_;
  // Each violation at the first state, in breadth-first order, that shows it (a thread's first
  // is its least: it takes its states in increasing order).
  struct Candidate {
    std::uint64_t at;
    std::size_t index;
    unsigned worker;
  };
  std::vector<Candidate> all;
  for (unsigned w = 0; w < workers_.size(); ++w)
    for (std::size_t i = 0; i < workers_[w]->found.size(); ++i)
      if (workers_[w]->found[i].at <= last_) all.push_back(Candidate{workers_[w]->found[i].at, i, w});
  std::sort(all.begin(), all.end(),
            [](const Candidate& a, const Candidate& b) { return a.at != b.at ? a.at < b.at : a.index < b.index; });
  std::set<ViolationKey> seen;
  for (const auto& c : all) {
    auto& v = workers_[c.worker]->classifier.found()[c.index];
    if (!seen.insert(key_of(v)).second) continue;
    v.trace = trace_to(workers_[c.worker]->found[c.index].id);
    r.violations.push_back(std::move(v));
  }
  std::set<std::string> limits;  // as Classifier::add_limits, in order
  for (const auto& w : workers_)
    for (const auto& [l, at] : w->limits)
      if (at <= last_) limits.insert(l);
  for (const auto& l : limits) add_limit(r, l);
  r.seconds = statespace::since(t0_);
  r.bytes = exact_bytes();
  r.verdict = verdict_of(r.violations, r.exhaustive);
  return r;
}

std::vector<Step> ThreadedSearch::trace_to(std::uint32_t id) const {
  std::vector<std::uint32_t> path;
  for (std::uint32_t cur = id; cur != statespace::SharedStates::kNone; cur = states_.parent(cur)) path.push_back(cur);
  std::reverse(path.begin(), path.end());
  if (!halves_)
    return trace_along(both_, codec_, parts_, path, [&](std::uint32_t state) { return states_.tuple(state); });
  statespace::SharedHalves::Cache cache(*halves_);
  std::vector<std::uint32_t> tuple(codec_.parts());
  return trace_along(both_, codec_, parts_, path, [&](std::uint32_t state) {
    halves_->unfold(states_.tuple(state), tuple.data(), cache);
    return static_cast<const std::uint32_t*>(tuple.data());
  });
}

std::size_t ThreadedSearch::bytes() const { return bytes_fixed_ + states_.bytes(); }

std::size_t ThreadedSearch::exact_bytes() const {
  std::size_t b = parts_.bytes() + states_.bytes() + level_.capacity() * sizeof(std::uint32_t) +
                  steps_of_.capacity() * sizeof(std::uint32_t) + fanout_of_.capacity() * sizeof(std::uint64_t);
  b += memo_.bytes() + memo_contexts_.bytes() + (halves_ ? halves_->bytes() : 0);
  for (const auto& w : workers_)
    b += w->expander.memo().bytes() + w->claims.capacity() * sizeof(Claim) + (w->cache ? w->cache->bytes() : 0) +
         w->met.bytes();
  return b;
}

}  // namespace syncbisim::checker::detail
