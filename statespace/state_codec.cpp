#include "statespace/state_codec.h"

#include <algorithm>

namespace syncbisim::statespace {

using semantics::EngineId;
using semantics::LoopId;

StateCodec::StateCodec(const semantics::Lockstep& both) : both_(&both) {
  const auto& p = both.spec().program();
  engines_ = p.engine_count();
  loops_ = p.loop_count();
  for (LoopId l = 0; l < loops_; ++l) {
    if (p.loops[l].chosen || p.loops[l].indexed) counted_loops_.push_back(l);
    if (p.loops[l].chosen && !p.loops[l].divergent) shared_choice_loops_.push_back(l);
  }
  producers_.resize(engines_);
  for (const auto& d : p.deps) {
    auto& mine = producers_[p.instrs[d.producer].engine];
    if (std::find(mine.begin(), mine.end(), d.producer) == mine.end()) mine.push_back(d.producer);
  }
  for (auto& mine : producers_) std::sort(mine.begin(), mine.end());
  // Which engines signal each semaphore: one engine makes it that engine's.
  const auto& impl = both.impl().program();
  constexpr auto kNone = static_cast<EngineId>(-1), kMany = static_cast<EngineId>(-2);
  std::vector<EngineId> signaler(impl.semaphores.size(), kNone);
  for (const auto& in : impl.instrs)
    if (in.has_signal) {
      auto& who = signaler[in.signal_sem];
      who = who == kNone || who == in.engine ? in.engine : kMany;
    }
  own_sems_.resize(engines_);
  for (semantics::SemId m = 0; m < signaler.size(); ++m) {
    if (signaler[m] < engines_) own_sems_[signaler[m]].push_back(m);
    else shared_sems_.push_back(m);
  }
  // Registers no register operation of an engine writes stay 0 there.
  written_regs_.resize(engines_);
  for (EngineId e = 0; e < engines_; ++e) {
    for (const auto& op : impl.code[e])
      if (op.kind == semantics::OpKind::RegOp) written_regs_[e].push_back(impl.regops[op.a].dst);
    std::sort(written_regs_[e].begin(), written_regs_[e].end());
    written_regs_[e].erase(std::unique(written_regs_[e].begin(), written_regs_[e].end()), written_regs_[e].end());
  }
  tracked_.resize(engines_);
  deps_of_engine_.resize(engines_);
  for (EngineId e = 0; e < engines_; ++e)
    for (LoopId l = 0; l < loops_; ++l)
      if (both.spec().tracked(e, l)) tracked_[e].push_back(l);
  for (std::uint32_t i = 0; i < p.deps.size(); ++i) deps_of_engine_[p.deps[i].consumer_engine].push_back(i);
  blank_ = semantics::LockstepState{both.spec().initial(), both.impl().initial()};
}

namespace {
// A register or semaphore value: one word when below 2^31 (nearly always), else a marker word
// and two words. At most three words.
std::uint32_t* put_value(std::uint32_t* w, std::uint64_t v) {
  if (v < 0x80000000ULL) {
    *w++ = static_cast<std::uint32_t>(v);
    return w;
  }
  *w++ = 0x80000000U;
  *w++ = static_cast<std::uint32_t>(v);
  *w++ = static_cast<std::uint32_t>(v >> 32);
  return w;
}
std::uint64_t get_value(const std::uint32_t*& w) {
  const std::uint32_t first = *w++;
  if (first < 0x80000000U) return first;
  const std::uint64_t lo = *w++;
  const std::uint64_t hi = *w++;
  return lo | (hi << 32);
}
// An in-flight list, one word per instruction, except that a run of kRunMin or more equal
// entries is the marker, the count and the entry (3 words). An engine that issues while it cannot
// retire (its head waits to be retired; the eager issue of the reductions runs it ahead) holds a
// list as long as it is ahead, often one instruction repeated: stored entry by entry, every state
// of that chain would cost its length, the memory of a search the square of its states
// (issue 18). An entry is instr * 2 + committed, never the marker (no 2^31 instructions).
constexpr std::uint32_t kRun = 0xffffffffU;
constexpr std::size_t kRunMin = 8;
std::uint32_t inflight_word(const semantics::InFlight& i) { return (i.instr << 1) | (i.committed ? 1U : 0U); }
template <class List>
std::uint32_t* put_inflight(std::uint32_t* w, const List& list) {
  const std::size_t n = list.size();
  for (std::size_t k = 0; k < n;) {
    const std::uint32_t word = inflight_word(list[k]);
    std::size_t run = 1;
    while (k + run < n && list[k + run] == list[k]) ++run;
    if (run >= kRunMin) {
      *w++ = kRun;
      *w++ = static_cast<std::uint32_t>(run);
      *w++ = word;
    } else {
      for (std::size_t r = 0; r < run; ++r) *w++ = word;
    }
    k += run;
  }
  return w;
}
template <class List>
const std::uint32_t* get_inflight(const std::uint32_t* w, List& list) {
  const std::size_t n = list.size();
  for (std::size_t k = 0; k < n;) {
    std::uint32_t word = *w++;
    std::size_t run = 1;
    if (word == kRun) {
      run = *w++;
      word = *w++;
    }
    for (std::size_t r = 0; r < run; ++r, ++k) {
      list[k].instr = word >> 1;
      list[k].committed = (word & 1U) != 0;
    }
  }
  return w;
}
}  // namespace

// A bound on the part's length is computed first, so the words are written through a pointer
// into a buffer of that size (no growth check per word).
void StateCodec::encode_engine(const semantics::LockstepState& s, EngineId e, PartWords& out) const {
  const auto& sc = s.spec.control.engines[e];
  const auto& ic = s.impl.control.engines[e];
  std::size_t n = 2 + 2 * sc.frames.size() + counted_loops_.size() + 1 + sc.inflight.size() + tracked_[e].size() +
                  3 * written_regs_[e].size() + 1 + producers_[e].size() + 3 * own_sems_[e].size();
  for (auto d : deps_of_engine_[e]) n += 1 + s.spec.history[d].size();
  std::uint32_t* const first = out.resize(n);
  std::uint32_t* w = first;
  *w++ = sc.pc;
  *w++ = ic.pc;
  for (const auto& f : sc.frames) {
    *w++ = f.iter;
    *w++ = f.trip;
  }
  for (auto l : counted_loops_) *w++ = sc.trips_started[l];
  *w++ = static_cast<std::uint32_t>(sc.inflight.size());
  w = put_inflight(w, sc.inflight);
  const auto& entries = s.spec.entries[e];
  for (auto l : tracked_[e]) *w++ = entries[l];
  for (auto d : deps_of_engine_[e]) {
    const auto& h = s.spec.history[d];
    *w++ = static_cast<std::uint32_t>(h.size());
    w = std::copy(h.begin(), h.end(), w);
  }
  const auto& regs = s.impl.regs[e];
  for (auto r : written_regs_[e]) w = put_value(w, regs[r]);
  *w++ = s.impl.arrived[e] | static_cast<std::uint32_t>(s.impl.overflow[e]) << 1;  // one word for both
  for (auto i : producers_[e]) *w++ = s.spec.retired[i];
  for (auto m : own_sems_[e]) w = put_value(w, s.impl.sems[m]);
  out.resize(static_cast<std::size_t>(w - first));
}

void StateCodec::encode_global(const semantics::LockstepState& s, PartWords& out) const {
  std::size_t n = 3 * shared_sems_.size();
  for (auto l : shared_choice_loops_) n += 1 + s.spec.control.pending[l].size();
  std::uint32_t* const first = out.resize(n);
  std::uint32_t* w = first;
  for (auto m : shared_sems_) w = put_value(w, s.impl.sems[m]);
  for (auto l : shared_choice_loops_) {
    const auto& pend = s.spec.control.pending[l];
    *w++ = static_cast<std::uint32_t>(pend.size());
    w = std::copy(pend.begin(), pend.end(), w);
  }
  out.resize(static_cast<std::size_t>(w - first));
}

void StateCodec::encode_part(const semantics::LockstepState& s, std::size_t i, PartWords& out) const {
  if (i < engines_) encode_engine(s, static_cast<EngineId>(i), out);
  else encode_global(s, out);
}

const std::uint32_t* StateCodec::decode_engine(semantics::LockstepState& s, EngineId e, const std::uint32_t* w) const {
  auto& sc = s.spec.control.engines[e];
  sc.pc = *w++;
  const std::uint32_t impl_pc = *w++;
  for (auto& f : sc.frames) {
    f.iter = *w++;
    f.trip = *w++;
  }
  for (auto l : counted_loops_) sc.trips_started[l] = *w++;
  sc.inflight.resize(*w++);
  w = get_inflight(w, sc.inflight);
  for (auto l : tracked_[e]) s.spec.entries[e][l] = *w++;
  for (auto d : deps_of_engine_[e]) {
    const std::uint32_t n = *w++;
    s.spec.history[d].assign(w, w + n);
    w += n;
  }
  auto& regs = s.impl.regs[e];
  for (auto r : written_regs_[e]) regs[r] = get_value(w);
  s.impl.arrived[e] = static_cast<std::uint8_t>(*w & 1U);
  s.impl.overflow[e] = static_cast<std::uint8_t>(*w++ >> 1);
  for (auto i : producers_[e]) s.spec.retired[i] = *w++;
  for (auto m : own_sems_[e]) s.impl.sems[m] = get_value(w);
  s.impl.control.engines[e] = sc;  // both sides share frames, trips and in-flight lists
  s.impl.control.engines[e].pc = impl_pc;
  return w;
}

void StateCodec::decode_global(semantics::LockstepState& s, const std::uint32_t* w) const {
  for (auto m : shared_sems_) s.impl.sems[m] = get_value(w);
  for (auto l : shared_choice_loops_) {
    auto& pend = s.spec.control.pending[l];
    pend.resize(*w++);
    for (auto& v : pend) v = *w++;
  }
  s.impl.control.pending = s.spec.control.pending;
}

void StateCodec::decode(const semantics::SmallVec<const std::uint32_t*, 8>& parts, semantics::LockstepState& s) const {
  for (EngineId e = 0; e < engines_; ++e) decode_engine(s, e, parts[e]);
  decode_global(s, parts[engines_]);
}

void StateCodec::decode_part(std::size_t i, const std::uint32_t* words, semantics::LockstepState& s) const {
  if (i < engines_) decode_engine(s, static_cast<EngineId>(i), words);
  else decode_global(s, words);
}

}  // namespace syncbisim::statespace
