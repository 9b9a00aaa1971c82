#include "checker/detail/step_memo.h"

#include <algorithm>

namespace syncbisim::checker::detail {

using semantics::StepKind;

namespace {
constexpr std::uint64_t kNoContext = UINT64_MAX;
constexpr std::uint64_t kInterned = std::uint64_t{1} << 63;  // else the counts packed, 10 bits each
constexpr std::uint32_t kCountLimit = 1024;
constexpr std::uint32_t kSettleKind = 15;  // a piece word's kind for settle_engine
constexpr std::size_t kFirstSlots = 1024;

std::vector<semantics::LoopId> uniform_range_loops(const semantics::CompiledProgram& p) {
  std::vector<semantics::LoopId> out;
  for (semantics::LoopId l = 0; l < p.loop_count(); ++l)
    if (p.loops[l].chosen && !p.loops[l].divergent) out.push_back(l);
  return out;
}

// A piece in one word: a valid bit, the kind (4 bits), the engine (7 bits) and 20 bits of
// argument (a choice's value and loop, 10 bits each). 0 when it does not fit.
std::uint32_t piece_word(const Piece& p) {
  const auto& st = p.step;
  if (st.engine >= 128) return 0;
  std::uint32_t kind = kSettleKind, arg = 0;
  if (!p.settle) {
    kind = static_cast<std::uint32_t>(st.kind);
    if (st.kind == StepKind::Choose) {
      if (st.arg >= 1024 || st.aux >= 1024) return 0;
      arg = st.arg | st.aux << 10;
    } else {
      if (st.arg >= (1U << 20) || st.aux != 0) return 0;
      arg = st.arg;
    }
  }
  return 0x80000000U | kind << 27 | static_cast<std::uint32_t>(st.engine) << 20 | arg;
}
}  // namespace

StepMemo::StepMemo(const semantics::Lockstep& both)
    : shared_loops_(uniform_range_loops(both.spec().program())),
      engines_(both.spec().program().engine_count()),
      started_(shared_loops_.size() * engines_),
      current_(started_.size()),
      context_(engines_, kNoContext),
      slots_(kFirstSlots) {}

std::uint64_t StepMemo::hash(const Entry& k) {
  std::uint64_t h = (std::uint64_t{k.piece} << 32 | k.part) * 0x9e3779b97f4a7c15ULL;
  h ^= (std::uint64_t{k.global} << 32 ^ k.context) * 0xff51afd7ed558ccdULL;
  h ^= h >> 32;
  return h * 0x9e3779b97f4a7c15ULL >> 20;
}

void StepMemo::at_state(const semantics::LockstepState& s) {
  const std::size_t loops = shared_loops_.size();
  for (std::size_t e = 0; e < engines_; ++e)
    for (std::size_t j = 0; j < loops; ++j)
      started_[e * loops + j] = s.spec.control.engines[e].trips_started[shared_loops_[j]];
  std::fill(context_.begin(), context_.end(), kNoContext);
  begin();  // contexts are cached only while current_ is this state's
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
    std::uint32_t lo = UINT32_MAX, hi = 0;
    for (std::size_t other = 0; other < engines_; ++other) {
      if (other == g) continue;
      lo = std::min(lo, current_[other * loops + j]);
      hi = std::max(hi, current_[other * loops + j]);
    }
    fits = lo < kCountLimit && hi < kCountLimit;
    context = context << 20 | std::uint64_t{lo} << 10 | hi;
  }
  if (!fits) {
    std::uint32_t* w = words_.resize(2 * loops);
    for (std::size_t j = 0; j < loops; ++j) {
      std::uint32_t lo = UINT32_MAX, hi = 0;
      for (std::size_t other = 0; other < engines_; ++other) {
        if (other == g) continue;
        lo = std::min(lo, current_[other * loops + j]);
        hi = std::max(hi, current_[other * loops + j]);
      }
      *w++ = lo;
      *w++ = hi;
    }
    context = kInterned | contexts_.intern(words_);
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

const StepMemo::Outcome* StepMemo::find(const Piece& p, std::uint32_t part, std::uint32_t global) {
  last_new_ = false;
  key_.piece = piece_word(p);
  if (key_.piece == 0) return nullptr;
  key_.part = part;
  key_.global = global;
  const auto kind = p.step.kind;
  key_.context = !p.settle && (kind == StepKind::Commit || kind == StepKind::Retire) ? 0 : context_of(p.step.engine);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash(key_) & mask;; i = (i + 1) & mask) {
    const Entry& slot = slots_[i];
    if (slot.piece == 0) break;
    if (slot.same_key(key_)) return &slot.outcome;
  }
  last_new_ = true;
  return nullptr;
}

void StepMemo::remember(const Piece& p, const semantics::LockstepState& after, std::uint32_t part,
                        std::uint32_t global) {
  const auto g = p.step.engine;
  const auto& started = after.spec.control.engines[g].trips_started;
  std::uint64_t counts = 0;
  bool fits = follows_choices();
  for (const auto l : shared_loops_) {
    fits = fits && started[l] < kCountLimit;
    counts = counts << 10 | (started[l] & (kCountLimit - 1));
  }
  const std::size_t loops = shared_loops_.size();
  for (std::size_t j = 0; j < loops; ++j) {
    moved_ = moved_ || current_[g * loops + j] != started[shared_loops_[j]];
    current_[g * loops + j] = started[shared_loops_[j]];
  }
  if (!last_new_) return;
  last_new_ = false;
  if (after.impl.arrived[g]) return;  // a release would read every engine
  // The pieces of a choice need the counts they leave (the next piece's context reads them);
  // the first piece of any other transition is its last, and its counts go unread.
  const bool in_choice = p.settle || p.step.kind == StepKind::Choose;
  if (in_choice && !fits) return;
  if ((count_ + 1) * 2 > slots_.size()) grow_or_forget();
  key_.outcome = Outcome{part, global, counts};
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash(key_) & mask;
  while (slots_[i].piece != 0) i = (i + 1) & mask;
  slots_[i] = key_;
  ++count_;
}

void StepMemo::grow_or_forget() {
  const std::size_t cap = slots_.size() * 2;
  if (cap * sizeof(Entry) > budget_) {
    std::fill(slots_.begin(), slots_.end(), Entry{});
    count_ = 0;
    return;
  }
  LargeArray<Entry> fresh(cap);
  for (const auto& e : slots_) {
    if (e.piece == 0) continue;
    std::size_t i = hash(e) & (cap - 1);
    while (fresh[i].piece != 0) i = (i + 1) & (cap - 1);
    fresh[i] = e;
  }
  slots_ = std::move(fresh);
}

}  // namespace syncbisim::checker::detail
