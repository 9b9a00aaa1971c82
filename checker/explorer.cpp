#include "checker/explorer.h"

#include <cassert>
#include <chrono>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <tuple>
#include <unordered_set>

#include "checker/part_table.h"
#include "checker/state_codec.h"

namespace syncbisim::checker {

using semantics::EngineId;
using semantics::LockstepState;
using semantics::Step;
using semantics::StepKind;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Which steps may be taken alone (the reductions of docs/checker.md).
class Reducer {
 public:
  explicit Reducer(const semantics::Lockstep& both) : both_(&both) {
    const auto& impl = both.impl().program();
    const auto& spec = both.spec().program();
    std::vector<std::uint8_t> resettable(impl.semaphores.size(), 0);
    for (const auto& b : impl.barriers) {
      if (b.reset_all) std::fill(resettable.begin(), resettable.end(), 1);
      for (auto s : b.reset) resettable[s] = 1;
    }
    // Issue is monotone for an instruction whose wait semaphores never go down: once both sides
    // may issue it they stay able to until the engine moves.
    monotone_issue_.assign(impl.instrs.size(), 1);
    for (semantics::InstrId i = 0; i < impl.instrs.size(); ++i)
      for (const auto& w : impl.instrs[i].waits)
        if (resettable[w.sem]) monotone_issue_[i] = 0;
    // A retirement is unobserved when no dependency reads its count and it signals nothing.
    unobserved_retire_.assign(impl.instrs.size(), 1);
    for (semantics::InstrId i = 0; i < impl.instrs.size(); ++i)
      if (impl.instrs[i].has_signal) unobserved_retire_[i] = 0;
    for (const auto& d : spec.deps) unobserved_retire_[d.producer] = 0;
  }

  // A step that may stand for all of `steps`, if there is one.
  const Step* eager(const std::vector<Step>& steps) const {
    for (const auto& st : steps) {
      if (st.kind == StepKind::Issue && monotone_issue_[st.arg]) return &st;
      if (st.kind == StepKind::Retire && unobserved_retire_[st.arg]) return &st;
    }
    return nullptr;
  }

 private:
  const semantics::Lockstep* both_;
  std::vector<std::uint8_t> monotone_issue_;
  std::vector<std::uint8_t> unobserved_retire_;
};

// Can the spec alone still make progress from a state where the pair is stuck? It may stand at
// a loop head the impl has not reached (the impl waits at a barrier before it): walk the spec's
// control steps and choices and see whether some engine gets to issue or all finish.
bool spec_can_progress(const semantics::SpecSystem& spec, const semantics::SpecState& start) {
  std::vector<semantics::SpecState> todo{start};
  std::set<std::uint64_t> seen;
  std::vector<Step> steps;
  while (!todo.empty() && seen.size() < 100000) {
    auto s = std::move(todo.back());
    todo.pop_back();
    if (!seen.insert(s.hash()).second) continue;
    if (spec.all_finished(s)) return true;
    steps.clear();
    spec.enabled(s, steps);
    for (const auto& st : steps) {
      if (st.kind == StepKind::Issue || st.kind == StepKind::Retire || st.kind == StepKind::Commit) return true;
      auto next = s;
      spec.apply(next, st);
      todo.push_back(std::move(next));
    }
  }
  return !todo.empty();  // gave up: do not claim the spec is stuck
}

class Classifier {
 public:
  explicit Classifier(const semantics::Lockstep& both) : both_(&both) {}

  // Records the violations at state `s`, if new. `trace` is called only for new ones.
  void classify(const LockstepState& s, const std::vector<Step>& steps,
                const std::function<std::vector<Step>()>& trace) {
    for (auto& m : both_->mismatches(s)) {
      const auto kind = m.impl_can ? ViolationKind::UnderSync : ViolationKind::OverSync;
      if (!seen_.insert({kind, m.engine, m.instr}).second) continue;
      Violation v;
      v.kind = kind;
      v.engine = m.engine;
      v.instr = m.instr;
      v.mismatch = std::move(m);
      v.trace = trace();
      found_.push_back(std::move(v));
    }
    if (!steps.empty() || both_->finished(s)) return;
    // No step on either side and someone is not finished: a deadlock.
    Violation v;
    v.kind = ViolationKind::Deadlock;
    const auto& spec = both_->spec();
    for (EngineId e = 0; e < spec.program().engine_count(); ++e)
      if (!both_->impl().control().finished(s.impl.control, e) || !spec.control().finished(s.spec.control, e))
        v.stuck.push_back(e);
    v.engine = v.stuck.empty() ? 0 : v.stuck.front();
    const auto& op = spec.control().next_op(s.spec.control, v.engine);
    if (op.kind == semantics::OpKind::Instr) v.instr = op.a;
    v.spec_deadlocks_too = !spec_can_progress(spec, s.spec);
    const auto key = std::make_tuple(ViolationKind::Deadlock, v.engine, v.instr ? *v.instr + 1 : 0U);
    if (!seen_.insert(key).second) return;
    v.trace = trace();
    found_.push_back(std::move(v));
  }

  std::vector<Violation>& found() { return found_; }

 private:
  const semantics::Lockstep* both_;
  std::set<std::tuple<ViolationKind, EngineId, std::uint32_t>> seen_;
  std::vector<Violation> found_;
};

// Identifies a violation for deduplication and for the search of a shorter trace.
using ViolationKey = std::tuple<ViolationKind, EngineId, std::uint32_t>;
ViolationKey key_of(const Violation& v) { return {v.kind, v.engine, v.instr ? *v.instr + 1 : 0U}; }

class Exhaustive {
 public:
  Exhaustive(const semantics::Lockstep& both, const CheckOptions& o)
      : both_(both), opt_(o), codec_(both), reducer_(both), classifier_(both), states_(codec_.parts()),
        parent_words_(codec_.parts()), parent_tuple_(codec_.parts(), kNoPart), cur_(codec_.blank()), succ_(codec_.blank()) {}

  // Stop as soon as this violation is found, exploring at most `max_depth` steps deep.
  void target(ViolationKey key, std::uint64_t max_depth) {
    target_ = key;
    max_depth_ = max_depth;
  }

  CheckResult run() {
    const auto t0 = Clock::now();
    auto last_progress = t0;
    CheckResult r;
    insert(both_.initial(), kNoParent, ~std::uint64_t{0});
    std::vector<Step> steps;
    std::uint64_t next = 0;
    std::uint64_t depth = 0, level_end = 1;  // BFS level of `next`; the level ends before level_end
    for (; next < parents_.size(); ++next) {
      if (next == level_end) {
        ++depth;
        level_end = parents_.size();
      }
      if ((next & 1023) == 0) {
        const double elapsed = since(t0);
        if (opt_.max_seconds > 0 && elapsed > opt_.max_seconds) {
          r.limit = "max-seconds " + std::to_string(opt_.max_seconds);
          break;
        }
        if (opt_.progress && std::chrono::duration<double>(Clock::now() - last_progress).count() >= 2.0) {
          last_progress = Clock::now();
          opt_.progress(Progress{parents_.size(), parents_.size() - next, elapsed, bytes()});
        }
      }
      decode(next);
      const LockstepState& s = cur_;
      steps.clear();
      both_.visible(s, steps);
      classifier_.classify(s, steps, [&] { return trace_to(static_cast<std::uint32_t>(next)); });
      if (target_) {
        bool hit = false;
        for (const auto& v : classifier_.found()) hit = hit || key_of(v) == *target_;
        if (hit) break;
        if (depth >= max_depth_) continue;
      }
      const Step* only = opt_.reduction ? reducer_.eager(steps) : nullptr;
      // Every successor is built in the same object, a copy of `s`: after a step only the parts
      // the step touched are copied back, and only those are encoded again.
      succ_ = s;
      auto expand = [&](const Step& st) {
        const std::uint64_t touched = both_.apply_touching(succ_, st);
        ++r.transitions;
        insert(succ_, static_cast<std::uint32_t>(next), touched);
        codec_.restore(succ_, s, touched);
      };
      if (only) {
        expand(*only);
      } else {
        for (const auto& st : steps) expand(st);
      }
      if (opt_.max_states > 0 && parents_.size() >= opt_.max_states && next + 1 < parents_.size()) {
        r.limit = "max-states " + std::to_string(opt_.max_states);
        ++next;
        break;
      }
    }
    r.exhaustive = next >= parents_.size() && r.limit.empty();
    r.states = parents_.size();
    r.seconds = since(t0);
    r.bytes = bytes();
    r.violations = std::move(classifier_.found());
    r.verdict = verdict_of(r.violations, r.exhaustive);
    return r;
  }

 private:
  static constexpr std::uint32_t kNoParent = UINT32_MAX;
  static constexpr std::uint32_t kNoPart = UINT32_MAX;  // no part decoded into cur_ yet
  std::optional<ViolationKey> target_;
  std::uint64_t max_depth_ = 0;

  // A step changes few parts (its engine's, the global one): an engine part the step did not
  // touch keeps the parent's id without being encoded, and a global part equal to the parent's
  // keeps its id without being hashed. The initial state (no parent) touches everything.
  void insert(const LockstepState& s, std::uint32_t parent, std::uint64_t touched) {
    tuple_.clear();
    const std::size_t engines = codec_.parts() - 1;
    for (std::size_t i = 0; i < engines; ++i) {
      if (i < 64 && !(touched >> i & 1U)) {
#ifndef NDEBUG
        codec_.encode_part(s, i, words_);
        assert(words_ == parent_words_[i]);
#endif
        tuple_.push_back(parent_tuple_[i]);
        continue;
      }
      codec_.encode_part(s, i, words_);
      tuple_.push_back(parts_.intern(words_));
    }
    codec_.encode_part(s, engines, words_);
    tuple_.push_back(parent != kNoParent && words_ == parent_words_[engines] ? parent_tuple_[engines]
                                                                             : parts_.intern(words_));
    if (states_.insert(tuple_.data()).second) {
      parents_.push_back(parent);
    }
  }

  // Rebuilds state `id` in cur_, keeping its parts' words and ids for insert().
  // Consecutive states share most parts (siblings differ in one engine or two): a part with the
  // same id as the state decoded before is neither read nor decoded again.
  void decode(std::uint64_t id) {
    const std::uint32_t* tuple = states_.tuple(static_cast<std::uint32_t>(id));
    for (std::size_t i = 0; i < codec_.parts(); ++i) {
      if (parent_tuple_[i] == tuple[i]) continue;
      parent_tuple_[i] = tuple[i];
      parts_.read(tuple[i], parent_words_[i]);
      codec_.decode_part(i, parent_words_[i].data(), cur_);
    }
  }

  // The steps that lead to state `id`. Only parents are stored (4 bytes a state): the step from a
  // parent to its child is found again by expanding the parent as the search did.
  std::vector<Step> trace_to(std::uint32_t id) const {
    std::vector<std::uint32_t> path;
    for (std::uint32_t cur = id; cur != kNoParent; cur = parents_[cur]) path.push_back(cur);
    std::reverse(path.begin(), path.end());
    std::vector<Step> out;
    std::vector<PartWords> words(codec_.parts());
    std::vector<Step> steps;
    PartWords encoded, want;
    for (std::size_t k = 0; k + 1 < path.size(); ++k) {
      const auto s = decode_copy(path[k], words);
      const std::uint32_t* child = states_.tuple(path[k + 1]);
      steps.clear();
      both_.visible(s, steps);
      for (const auto& st : steps) {
        auto succ = s;
        both_.apply(succ, st);
        bool same = true;
        for (std::size_t i = 0; same && i < codec_.parts(); ++i) {
          codec_.encode_part(succ, i, encoded);
          parts_.read(child[i], want);
          same = encoded == want;
        }
        if (same) {
          out.push_back(st);
          break;
        }
      }
    }
    return out;
  }

  LockstepState decode_copy(std::uint32_t id, std::vector<PartWords>& words) const {
    const std::uint32_t* tuple = states_.tuple(id);
    semantics::SmallVec<const std::uint32_t*, 8> parts(codec_.parts());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      parts_.read(tuple[i], words[i]);
      parts[i] = words[i].data();
    }
    LockstepState s = codec_.blank();
    codec_.decode(parts, s);
    return s;
  }

  std::uint64_t bytes() const {
    return parts_.bytes() + states_.bytes() + parents_.capacity() * sizeof(std::uint32_t);
  }

  const semantics::Lockstep& both_;
  const CheckOptions& opt_;
  StateCodec codec_;
  Reducer reducer_;
  Classifier classifier_;
  PartTable parts_;  // engine and global parts (all parts share one table)
  StateSet states_;  // tuples of part ids
  std::vector<std::uint32_t> parents_;
  PartWords words_;
  std::vector<std::uint32_t> tuple_;
  std::vector<PartWords> parent_words_;  // the state being expanded, part by part
  std::vector<std::uint32_t> parent_tuple_;  // its part ids
  LockstepState cur_;   // the state being expanded
  LockstepState succ_;  // its successor being built
};

CheckResult random_walks(const semantics::Lockstep& both, const CheckOptions& o) {
  const auto t0 = Clock::now();
  CheckResult r;
  Classifier classifier(both);
  std::unordered_set<std::uint64_t> distinct;  // for the state count only
  std::vector<Step> steps, path;
  for (std::uint64_t w = 0; w < o.walks; ++w) {
    // Each walk has its own stream derived from the seed, so walk w replays alone.
    std::mt19937_64 rng(o.seed * 0x9e3779b97f4a7c15ULL + w);
    auto s = both.initial();
    path.clear();
    for (std::uint64_t d = 0;; ++d) {
      distinct.insert(s.hash());
      steps.clear();
      both.visible(s, steps);
      classifier.classify(s, steps, [&] { return path; });
      if (steps.empty() || d >= o.depth) break;
      const auto st = steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(rng)];
      both.apply(s, st);
      path.push_back(st);
      ++r.transitions;
    }
    if (o.max_seconds > 0 && since(t0) > o.max_seconds) {
      r.limit = "max-seconds " + std::to_string(o.max_seconds);
      break;
    }
  }
  r.exhaustive = false;
  if (r.limit.empty())
    r.limit = "random: " + std::to_string(o.walks) + " walks of at most " + std::to_string(o.depth) + " steps";
  r.states = distinct.size();
  r.seconds = since(t0);
  r.violations = std::move(classifier.found());
  r.verdict = verdict_of(r.violations, false);
  return r;
}

}  // namespace

// The reductions force eager steps into a trace. Look for the same violation once more without
// them, no deeper than the trace found, so the trace shown is a shortest one of the full graph.
void shorten(const semantics::Lockstep& both, const CheckOptions& options, Violation& v) {
  CheckOptions plain;
  plain.reduction = false;
  plain.max_states = 200000;
  plain.max_seconds = options.max_seconds > 0 ? options.max_seconds : 10.0;
  Exhaustive search(both, plain);
  search.target(key_of(v), v.trace.size());
  const auto r = search.run();
  for (const auto& w : r.violations)
    if (key_of(w) == key_of(v) && w.trace.size() < v.trace.size()) v.trace = w.trace;
}

CheckResult check(const semantics::Lockstep& both, const CheckOptions& options) {
  if (options.walks > 0) return random_walks(both, options);
  auto r = Exhaustive(both, options).run();
  if (options.reduction)
    for (auto& v : r.violations) shorten(both, options, v);
  return r;
}

}  // namespace syncbisim::checker
