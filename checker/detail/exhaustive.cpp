#include "checker/detail/exhaustive.h"

#include <algorithm>
#include <cassert>
#include <chrono>

#include "checker/detail/stopwatch.h"

namespace syncbisim::checker::detail {

using semantics::LockstepState;
using semantics::Step;

Exhaustive::Exhaustive(const semantics::Lockstep& both, const CheckOptions& o)
    : both_(both),
      opt_(o),
      codec_(both),
      reducer_(both),
      classifier_(both),
      memo_(both),
      states_(codec_.parts()),
      parent_words_(codec_.parts()),
      parent_tuple_(codec_.parts(), kNoPart),
      work_(codec_.blank()) {}

CheckResult Exhaustive::run() {
  const auto t0 = Clock::now();
  auto last_progress = t0;
  CheckResult r;
  insert(both_.initial(), kNoParent, ~std::uint64_t{0});
  flush();
  std::vector<Step> steps;
  std::vector<semantics::Mismatch> mismatches;
  std::uint64_t next = 0;
  std::uint64_t dirty = 0;                 // the parts where work_ may differ from the words in parent_words_
  std::uint64_t depth = 0, level_end = 1;  // BFS level of `next`; the level ends before level_end
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
      memo_.budget(parents_.size() * kMemoBytesPerState);
      const double elapsed = since(t0);
      if (opt_.max_seconds > 0 && elapsed > opt_.max_seconds) {
        r.limit = seconds_limit(opt_.max_seconds);
        break;
      }
      if (opt_.progress && std::chrono::duration<double>(Clock::now() - last_progress).count() >= 2.0) {
        last_progress = Clock::now();
        opt_.progress(Progress{parents_.size(), parents_.size() - next, elapsed, bytes()});
      }
    }
    dirty |= read(next);
    bring(dirty);
    const LockstepState& s = work_;
    memo_.at_state(s);
    waiting_ = 0;
    for (semantics::EngineId e = 0; e < codec_.parts() - 1; ++e)
      if (both_.spec().control().next_op(s.spec.control, e).kind == semantics::OpKind::LoopHead)
        waiting_ |= StateCodec::part_bit(e);
    steps.clear();
    mismatches.clear();
    both_.visible(s, steps, &mismatches);
    classifier_.classify(s, steps, mismatches, [&] { return trace_to(static_cast<std::uint32_t>(next)); });
    if (target_) {
      bool hit = false;
      for (const auto& v : classifier_.found()) hit = hit || key_of(v) == *target_;
      if (hit) break;
      if (depth >= max_depth_) continue;
    }
    const Step* only = opt_.reduction ? reducer_.eager(steps) : nullptr;
    const auto id = static_cast<std::uint32_t>(next);
    if (only) {
      expand(*only, id, dirty);
      ++r.transitions;
    } else {
      for (const auto& st : steps) expand(st, id, dirty);
      r.transitions += steps.size();
    }
    if (opt_.max_states > 0) flush();
    if (opt_.max_states > 0 && parents_.size() >= opt_.max_states && next + 1 < parents_.size()) {
      r.limit = "max-states " + std::to_string(opt_.max_states);
      ++next;
      break;
    }
  }
  flush();
  r.exhaustive = next >= parents_.size() && r.limit.empty();
  r.states = parents_.size();
  r.seconds = since(t0);
  r.bytes = bytes();
  r.violations = std::move(classifier_.found());
  r.verdict = verdict_of(r.violations, r.exhaustive);
  return r;
}

void Exhaustive::expand(const Step& st, std::uint32_t parent, std::uint64_t& dirty) {
  tuple_ = parent_tuple_;
  memo_.begin();
  if (follow_memo(st)) {
#ifndef NDEBUG
    // The memo's argument (checker/detail/step_memo.h), checked on every hit.
    const auto remembered = tuple_;
    bring(dirty);
    tuple_ = parent_tuple_;
    memo_.begin();
    dirty = build(st, parent);
    assert(tuple_ == remembered);
#endif
    enqueue(parent);
    return;
  }
  // The successor is built in work_ itself, brought back to the state being expanded first:
  // only the parts the step before touched are decoded again from the state's words (lazily,
  // so the last successor of a state is never undone), and only the parts this step touches
  // are encoded again.
  bring(dirty);
  tuple_ = parent_tuple_;
  memo_.begin();
  dirty = build(st, parent);
  enqueue(parent);
}

bool Exhaustive::follow_memo(const Step& st) {
  const std::size_t global = codec_.parts() - 1;
  const bool choice = st.kind == semantics::StepKind::Choose;
  auto take = [&](const Piece& p) {
    const std::size_t g = p.step.engine;
    const auto* known = memo_.find(p, tuple_[g], tuple_[global]);
    if (!known) return false;
    tuple_[g] = known->part;
    tuple_[global] = known->global;
    if (choice) memo_.advance(p.step.engine, *known);  // the round after a choice reads the counts
    return true;
  };
  if (!take(Piece{st})) return false;
  if (!choice) return true;
  if (!memo_.follows_choices()) return false;
  for (semantics::EngineId f = 0; f < global; ++f)
    if (may_wait(f) && !take(Piece::settling(f))) return false;
  return true;
}

std::uint64_t Exhaustive::build(const Step& st, std::uint32_t parent) {
  const std::size_t global = codec_.parts() - 1;
  std::uint64_t touched = 0;
  // Lockstep::apply_touching() piece by piece: each piece's outcome is taken from the memo
  // when it knows it (checked against the encoding in builds with assertions), else encoded
  // and remembered.
  auto run = [&](const Piece& p) {
    const std::size_t g = p.step.engine;
    const auto* known = memo_.find(p, tuple_[g], tuple_[global]);
    bool moved = true;
    if (p.settle) moved = both_.settle_engine(work_, p.step.engine);
    else both_.apply_local(work_, p.step);
    if (moved) touched |= StateCodec::part_bit(g);
    if (known) {
#ifndef NDEBUG
      codec_.encode_part(work_, g, words_);
      assert(parts_.intern(words_) == known->part);
      codec_.encode_part(work_, global, words_);
      assert(parts_.intern(words_) == known->global);
#endif
      tuple_[g] = known->part;
      tuple_[global] = known->global;
      if (st.kind == semantics::StepKind::Choose) memo_.advance(p.step.engine, *known);
      return;
    }
    if (moved) {
      codec_.encode_part(work_, g, words_);
      tuple_[g] = parts_.intern(words_);
      codec_.encode_part(work_, global, words_);
      tuple_[global] = parts_.intern(words_);
    }
    memo_.remember(p, work_, tuple_[g], tuple_[global]);
  };
  run(Piece{st});
  if (st.kind == semantics::StepKind::Choose)
    for (semantics::EngineId f = 0; f < global; ++f) {
      if (may_wait(f)) {
        run(Piece::settling(f));
      } else {
        [[maybe_unused]] const bool moved = both_.settle_engine(work_, f);
        assert(!moved);  // may_wait()'s argument
      }
    }
  if (both_.barrier_ready(work_)) {  // the release moves every engine
    both_.settle(work_);
    return encode_tuple(work_, parent, ~std::uint64_t{0});
  }
  if (tuple_[global] != parent_tuple_[global]) touched |= StateCodec::part_bit(global);
  return touched;
}

std::uint64_t Exhaustive::encode_tuple(const LockstepState& s, std::uint32_t parent, std::uint64_t touched) {
  tuple_.clear();
  const std::size_t engines = codec_.parts() - 1;
  for (std::size_t i = 0; i < engines; ++i) {
    if (!StateCodec::is_touched(touched, i)) {
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
  const bool same_global = parent != kNoParent && words_ == parent_words_[engines];
  tuple_.push_back(same_global ? parent_tuple_[engines] : parts_.intern(words_));
  if (engines >= 64) return touched;  // the global part counts as touched anyway
  return same_global ? touched & ~StateCodec::part_bit(engines) : touched | StateCodec::part_bit(engines);
}

void Exhaustive::enqueue(std::uint32_t parent) {
  // The state set's slot for this tuple is fetched now and looked at later, after the next
  // successor (or the next state) has been built: the cache miss overlaps that work.
  const std::uint64_t h = states_.hash(tuple_.data());
  states_.prefetch(h);
  pending_tuples_.insert(pending_tuples_.end(), tuple_.begin(), tuple_.end());
  pending_.push_back(Pending{h, parent});
  if (pending_.size() >= kMaxPending) flush();
}

void Exhaustive::flush() {
  const std::size_t width = codec_.parts();
  for (std::size_t k = 0; k < pending_.size(); ++k)
    if (states_.insert(pending_tuples_.data() + k * width, pending_[k].hash).second)
      parents_.push_back(pending_[k].parent);
  pending_.clear();
  pending_tuples_.clear();
}

std::uint64_t Exhaustive::read(std::uint64_t id) {
  const std::uint32_t* tuple = states_.tuple(static_cast<std::uint32_t>(id));
  std::uint64_t changed = 0;
  for (std::size_t i = 0; i < codec_.parts(); ++i) {
    if (parent_tuple_[i] == tuple[i]) continue;
    changed |= StateCodec::part_bit(i);
    parent_tuple_[i] = tuple[i];
    parts_.read(tuple[i], parent_words_[i]);
  }
  return changed;
}

void Exhaustive::bring(std::uint64_t& dirty) {
  if (dirty == 0) return;
  for (std::size_t i = 0; i < codec_.parts(); ++i)
    if (StateCodec::is_touched(dirty, i)) codec_.decode_part(i, parent_words_[i].data(), work_);
  dirty = 0;
}

std::vector<Step> Exhaustive::trace_to(std::uint32_t id) const {
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

LockstepState Exhaustive::decode_copy(std::uint32_t id, std::vector<PartWords>& words) const {
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

std::uint64_t Exhaustive::bytes() const { return parts_.bytes() + states_.bytes() + parents_.bytes() + memo_.bytes(); }

}  // namespace syncbisim::checker::detail
