#include "statespace/detail/step_memo.h"

#include <algorithm>

namespace syncbisim::statespace::detail {

using semantics::StepKind;

namespace {
constexpr std::uint64_t kNoContext = UINT64_MAX;
constexpr std::uint64_t kInterned = std::uint64_t{1} << 63;  // else the counts packed, 10 bits each
constexpr std::uint32_t kCountLimit = 1024;
constexpr std::uint32_t kSettleKind = 15;  // a piece word's kind for settle_engine

std::vector<semantics::LoopId> uniform_range_loops(const semantics::CompiledProgram& p) {
  std::vector<semantics::LoopId> out;
  for (semantics::LoopId l = 0; l < p.loop_count(); ++l)
    if (p.loops[l].chosen && !p.loops[l].divergent) out.push_back(l);
  return out;
}

// A piece in one word: a valid bit, the kind (4 bits), the engine (7 bits) and 20 bits of
// argument (a choice's value and loop, 10 bits each). 0 when it does not fit.
std::uint32_t piece_word(const Piece& p) {
  const auto engine = engine_of(p);
  if (engine >= 128) return 0;
  std::uint32_t kind = kSettleKind, arg = 0;
  if (const auto* local = std::get_if<LocalStep>(&p)) {
    const auto& st = local->step;
    kind = static_cast<std::uint32_t>(st.kind);
    if (st.kind == StepKind::Choose) {
      if (st.arg >= 1024 || st.aux >= 1024) return 0;
      arg = st.arg | st.aux << 10;
    } else {
      if (st.arg >= (1U << 20) || st.aux != 0) return 0;
      arg = st.arg;
    }
  }
  const std::uint32_t word = 0x80000000U | kind << 27 | static_cast<std::uint32_t>(engine) << 20 | arg;
  return word == UINT32_MAX ? 0 : word;  // every bit set marks a shared slot being written (memo_table.cpp)
}

// Does the piece read the other engines' trip counts? A commit or a retirement leaves its engine
// where it was; in a settled state that engine's loop control then still has no step.
bool reads_context(const Piece& p) {
  const auto* local = std::get_if<LocalStep>(&p);
  return !local || (local->step.kind != StepKind::Commit && local->step.kind != StepKind::Retire);
}

// The pieces of a choice's transition carry the counts they leave (the next piece's context
// reads them); the only piece of any other transition is its last, and its counts go unread.
bool in_choice(const Piece& p) {
  const auto* local = std::get_if<LocalStep>(&p);
  return !local || local->step.kind == StepKind::Choose;
}

// The least and the greatest count of shared loop j among the engines other than g, in counts
// laid out by engine, then loop.
struct Range {
  std::uint32_t lo, hi;
};
inline Range others_range(const std::vector<std::uint32_t>& counts, std::size_t engines, std::size_t loops,
                          semantics::EngineId g, std::size_t j) {
  Range r{UINT32_MAX, 0};
  for (std::size_t other = 0; other < engines; ++other) {
    if (other == g) continue;
    r.lo = std::min(r.lo, counts[other * loops + j]);
    r.hi = std::max(r.hi, counts[other * loops + j]);
  }
  return r;
}
}  // namespace

StepMemo::StepMemo(const semantics::Lockstep& both)
    : shared_loops_(uniform_range_loops(both.spec().program())),
      engines_(both.spec().program().engine_count()),
      started_(shared_loops_.size() * engines_),
      current_(started_.size()),
      context_(engines_, kNoContext) {}

void StepMemo::share(MemoTable& table, PartTable& contexts) {
  shared_ = &table;
  shared_contexts_ = &contexts;
  allow(0);
}

void StepMemo::at_state(const semantics::LockstepState& s) {
  const std::size_t loops = shared_loops_.size();
  // Written into both (not copied after: a copy that reads the words just stored waits for the
  // stores to reach the cache, since it loads them a vector at a time).
  for (std::size_t e = 0; e < engines_; ++e)
    for (std::size_t j = 0; j < loops; ++j)
      started_[e * loops + j] = current_[e * loops + j] = s.spec.control.engines[e].trips_started[shared_loops_[j]];
  std::fill(context_.begin(), context_.end(), kNoContext);
  moved_ = false;  // contexts are cached only while current_ is this state's
}

std::uint64_t StepMemo::context_of(semantics::EngineId g) {
  if (shared_loops_.empty()) return 0;
  if (!moved_ && context_[g] != kNoContext) return context_[g];
  // What start_trip and known_trip read of the other engines: the least and the greatest count
  // (with g's own, in its part, they give the base and the top of `pending`). Up to three loops
  // with counts below 2^10 pack into one word; the rest is interned.
  const std::size_t loops = shared_loops_.size();
  std::uint64_t context = 0;
  bool fits = loops <= 3;
  for (std::size_t j = 0; fits && j < loops; ++j) {
    const auto [lo, hi] = others_range(current_, engines_, loops, g, j);
    fits = lo < kCountLimit && hi < kCountLimit;
    context = context << 20 | std::uint64_t{lo} << 10 | hi;
  }
  if (!fits) {
    std::uint32_t* w = words_.resize(2 * loops);
    for (std::size_t j = 0; j < loops; ++j) {
      const auto [lo, hi] = others_range(current_, engines_, loops, g, j);
      *w++ = lo;
      *w++ = hi;
    }
    context = kInterned | (shared_contexts_ ? *shared_contexts_ : own_contexts_).intern(words_);
  }
  if (!moved_) context_[g] = context;
  return context;
}

void StepMemo::advance(semantics::EngineId g, const Outcome& o) {
  std::uint64_t counts = o.counts;
  const std::size_t loops = shared_loops_.size();
  for (std::size_t j = loops; j-- > 0; counts >>= 10) {
    const auto c = static_cast<std::uint32_t>(counts & (kCountLimit - 1));
    moved_ = moved_ || current_[g * loops + j] != c;
    current_[g * loops + j] = c;
  }
}

StepMemo::Key StepMemo::find(const Piece& p, std::uint32_t part, std::uint32_t global) {
  Key key;
  key.engine_ = engine_of(p);
  key.in_choice_ = in_choice(p);
  MemoEntry& k = key.entry_;
  k.piece = piece_word(p);
  if (k.piece == 0) return key;  // cannot be remembered
  k.part = part;
  k.global = global;
  k.context = reads_context(p) ? context_of(key.engine_) : 0;
  key.known_ = table().find(k);
  return key;
}

void StepMemo::remember(const Key& key, const semantics::LockstepState& after, std::uint32_t part,
                        std::uint32_t global) {
  const auto g = key.engine_;
  const auto& started = after.spec.control.engines[g].trips_started;
  std::uint64_t counts = 0;
  bool fits = follows_choices();
  const std::size_t loops = shared_loops_.size();
  for (std::size_t j = 0; j < loops; ++j) {
    const auto c = started[shared_loops_[j]];
    fits = fits && c < kCountLimit;
    counts = counts << 10 | (c & (kCountLimit - 1));
    moved_ = moved_ || current_[g * loops + j] != c;
    current_[g * loops + j] = c;
  }
  if (key.entry_.piece == 0 || key.known_) return;
  if (after.impl.arrived[g]) return;  // a release would read every engine
  if (key.in_choice_ && !fits) return;
  MemoEntry e = key.entry_;
  e.outcome = Outcome{part, global, counts};
  if (!shared_) {
    own_.insert(e, budget_);
  } else if (inserted_ == allowed_) {
    ++refused_;
  } else if (shared_->insert_shared(e)) {
    ++inserted_;
  }
}

}  // namespace syncbisim::statespace::detail
