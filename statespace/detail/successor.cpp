#include "statespace/detail/successor.h"

#include <cassert>

namespace syncbisim::statespace::detail {

using semantics::EngineId;
using semantics::Step;
using semantics::StepKind;

namespace {
// Builds with assertions run every piece, also those the memo knows, and check the memo's
// outcome and every untouched part against the encoding of the state built.
#ifdef NDEBUG
constexpr bool kVerify = false;
#else
constexpr bool kVerify = true;
#endif
constexpr std::uint32_t kNoPart = UINT32_MAX;  // no part read yet
}  // namespace

SuccessorBuilder::SuccessorBuilder(const semantics::Lockstep& both, const StateCodec& codec, PartTable& parts)
    : both_(both),
      codec_(codec),
      parts_(parts),
      memo_(both),
      global_(codec.global_part()),
      loaded_(codec.parts(), kNoPart),
      loaded_words_(codec.parts()),
      work_(codec.blank()),
      dirty_(PartSet::all()) {}

const std::vector<std::uint32_t>& SuccessorBuilder::encode(const semantics::LockstepState& s) {
  tuple_.clear();
  for (std::size_t i = 0; i < codec_.parts(); ++i) {
    codec_.encode_part(s, i, words_);
    tuple_.push_back(parts_.intern(words_));
  }
  return tuple_;
}

const semantics::LockstepState& SuccessorBuilder::load(const std::uint32_t* tuple) {
  for (std::size_t i = 0; i < codec_.parts(); ++i) {
    if (loaded_[i] == tuple[i]) continue;
    dirty_.add(i);
    loaded_[i] = tuple[i];
    parts_.read(tuple[i], loaded_words_[i]);
  }
  bring();
  memo_.at_state(work_);
  waiting_.clear();
  for (EngineId e = 0; e < global_; ++e)
    if (both_.spec().control().next_op(work_.spec.control, e).kind == semantics::OpKind::LoopHead) waiting_.add(e);
  return work_;
}

void SuccessorBuilder::bring() {
  if (dirty_.empty()) return;
  for (std::size_t i = 0; i < codec_.parts(); ++i)
    if (dirty_.contains(i)) codec_.decode_part(i, loaded_words_[i].data(), work_);
  dirty_.clear();
}

const std::vector<std::uint32_t>& SuccessorBuilder::build(const Step& st) {
  tuple_ = loaded_;
  taken_.clear();
  memo_.begin();
  choice_ = st.kind == StepKind::Choose;
  stepping_ = false;
  if (kVerify) start_stepping();
  // Lockstep::apply_touching() piece by piece: the step on its engine, then after a choice the
  // settling of each engine that may move.
  take(LocalStep{st});
  if (choice_)
    for (EngineId f = 0; f < global_; ++f) {
      if (waiting_.contains(f)) {
        take(SettleEngine{f});
      } else if (kVerify) {
        [[maybe_unused]] const bool moved = both_.settle_engine(work_, f);
        assert(!moved);  // the argument at waiting_
      }
    }
  if (!stepping_) return tuple_;     // from the memo alone: no barrier is ready (docs/checker.md)
  if (both_.barrier_ready(work_)) {  // the release moves every engine
    both_.settle(work_);
    encode_all();
  }
  if (tuple_[global_] != loaded_[global_]) dirty_.add(global_);
#ifndef NDEBUG
  for (std::size_t i = 0; i < codec_.parts(); ++i) {
    codec_.encode_part(work_, i, words_);
    assert(parts_.intern(words_) == tuple_[i]);
  }
#endif
  return tuple_;
}

void SuccessorBuilder::take(const Piece& p) {
  const EngineId g = engine_of(p);
  const auto key = memo_.find(p, tuple_[g], tuple_[global_]);
  const auto* known = key.known();
  if (!stepping_ && !known) start_stepping();
  const bool moved = stepping_ && run(p);
  if (known) {
    tuple_[g] = known->part;
    tuple_[global_] = known->global;
    if (choice_) memo_.advance(g, *known);  // the next piece's context reads g's counts
  } else {
    if (moved) {
      codec_.encode_part(work_, g, words_);
      tuple_[g] = parts_.intern(words_);
      codec_.encode_part(work_, global_, words_);
      tuple_[global_] = parts_.intern(words_);
    }
    memo_.remember(key, work_, tuple_[g], tuple_[global_]);
  }
  if (choice_) taken_.push_back(p);  // only a choice's transition has a piece after the first
}

void SuccessorBuilder::start_stepping() {
  bring();
  for (const auto& p : taken_) run(p);
  stepping_ = true;
}

bool SuccessorBuilder::run(const Piece& p) {
  if (const auto* local = std::get_if<LocalStep>(&p)) {
    both_.apply_local(work_, local->step);
    dirty_.add(local->step.engine);
    return true;
  }
  const EngineId e = std::get<SettleEngine>(p).engine;
  if (!both_.settle_engine(work_, e)) return false;
  dirty_.add(e);
  return true;
}

void SuccessorBuilder::encode_all() {
  for (std::size_t i = 0; i < global_; ++i) {
    codec_.encode_part(work_, i, words_);
    tuple_[i] = parts_.intern(words_);
  }
  dirty_ = PartSet::all();
  codec_.encode_part(work_, global_, words_);
  if (words_ == loaded_words_[global_]) {
    tuple_[global_] = loaded_[global_];
    dirty_.remove(global_);
  } else {
    tuple_[global_] = parts_.intern(words_);
  }
}

}  // namespace syncbisim::statespace::detail
