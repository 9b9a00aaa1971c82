// The implementation side (docs/prover.md "Impl side"): a wait holds when its semaphore is at
// least its threshold; a threshold is a constant or a register of the consumer's engine at the
// consumer; a semaphore is the sum of its signals retired since the last barrier release that
// reset it. At a release every engine stands drained at the same barrier of the walk (barriers
// aligned, uniform control), so what its instructions had retired then is what ran before that
// barrier: R(I) - count(I, barrier).
#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

bool Encoder::resets(const BarrierPlace& b, const std::string& sem) const {
  // A release resets the union of the lists of the barriers it frees (all semaphores if one of
  // them has no list: docs/semantics.md §4); those are the barriers of the same group on every engine.
  // (With barriers not aligned, the ones of the same ordinal in the block.)
  const auto& items = places_.body(b.at.loop)[b.at.stmt].items;
  std::uint32_t ordinal = 0;
  for (std::uint32_t k = 0; k < b.at.item; ++k) ordinal += items[b.engine][k].kind == ItemRef::Kind::Barrier;
  for (model::EngineId h = 0; h < items.size(); ++h) {
    std::uint32_t n = 0;
    for (const auto& it : items[h]) {
      if (it.kind != ItemRef::Kind::Barrier || n++ != ordinal) continue;
      const auto& bar = places_.barriers()[it.index];
      if (!bar.reset) return true;
      for (const auto& s : *bar.reset)
        if (s == sem) return true;
    }
  }
  return false;
}

std::vector<Encoder::Spot> Encoder::last_reset(const std::string& sem) {
  // Back from the consumer to the last barrier of e whose group resets sem, looking inside the
  // loops that ended before it (frames.cpp); a barrier that does not reset it is searched on
  // from.
  const auto what = "semaphore " + sem;
  std::vector<Spot> out;
  auto todo = search_back_spots(consumer_point(), what, ctx_.truth(true), false);
  for (int rounds = 0; !todo.empty(); ++rounds) {
    if (rounds > 256) throw Outside{what + ": more than 256 barriers before the consumer that do not reset it"};
    const auto f = todo.back();
    todo.pop_back();
    if (f.item && !resets(places_.barriers()[f.item->index], sem)) {
      auto more = search_before(f, false);
      todo.insert(todo.end(), more.begin(), more.end());
      continue;
    }
    out.push_back(f);
  }
  return out;
}

smt::Term Encoder::semaphore(const std::string& sem) {
  // Its signals and whether any barrier resets it: ProgramTables, built once per program.
  static const std::vector<model::InstrId> kNone;
  const auto* table = tables_.semaphore(sem);
  const auto& signals = table ? table->signals : kNone;
  bool ever_reset = false;
  if (table) ever_reset = table->ever_reset;
  else
    for (const auto& b : places_.barriers()) ever_reset = ever_reset || resets(b, sem);
  std::vector<Spot> cases;
  if (!ever_reset) {
    // Never reset: the sum of every signal retired, with runs folded (runs.cpp).
    return signal_sum(sem);
  } else {
    std::string why;
    if (!places_.barrier_misalignment().empty()) why = places_.barrier_misalignment();
    else if (!barriers_shared_)
      why =
          "a barrier lies in a loop with a per-engine trip rule (paper §7.5), so engines may meet different "
          "numbers of barriers";
    else {
      try {
        for (const auto i : signals) R(i);  // counted at the resets found
        cases = last_reset(sem);
      } catch (const Outside& o) {
        why = o.reason;
      }
    }
    if (!why.empty()) {
      // Where its last reset was is not known: its value lies between none and all of the
      // signals retired (an over-approximation, never a wrong fact).
      approximated_.push_back("semaphore " + sem + " is reset by barriers the prover cannot place (" + why + ")");
      const auto all = signal_sum(sem);
      auto v = nat("sem_" + sem);
      facts_.push_back(v <= all);
      return v;
    }
  }
  // Per case (exclusive guards), the signals retired since that release.
  std::optional<smt::Term> value;
  for (std::size_t k = cases.size(); k-- > 0;) {
    std::vector<smt::Term> parts;
    const bool reset = cases[k].in_frame() || cases[k].outer->at;
    const auto at = reset ? counts_at(cases[k]) : std::map<model::InstrId, smt::Term>{};
    for (const auto i : signals) {
      auto r = R(i);
      if (reset && countable(i)) {
        r = r - at.at(i);
      } else if (reset) {
        // Under a per-engine rule its engine's count at the release is its own: somewhere
        // between none and all of what it has retired.
        auto since = nat("since_reset_" + places_.index().instrs[i].name);
        facts_.push_back(since <= r);
        r = since;
      }
      parts.push_back(places_.instr(i).signal->add * r);
    }
    const auto v = ctx_.sum(parts);
    value = value ? ite(cases[k].guard, v, *value) : v;
  }
  return *value;
}

void Encoder::encode_impl() {
  // The semaphores first: their sums make the summaries of whole statements (runs.cpp) that a
  // threshold's register may stand at (a cut lemma, registers.cpp).
  const auto& waits = places_.instr(consumer_).waits;
  std::vector<smt::Term> values;
  for (const auto& w : waits) values.push_back(semaphore(w.sem));
  std::vector<smt::Term> all;
  for (std::size_t k = 0; k < waits.size(); ++k) {
    const auto& w = waits[k];
    threshold_wait_ = k;
    threshold_sem_ = w.sem;
    const auto thr = std::holds_alternative<std::uint64_t>(w.ge)
                         ? ctx_.nat(std::get<std::uint64_t>(w.ge))
                         : reg_value(std::get<std::string>(w.ge), consumer_point(), 0).v;
    threshold_wait_ = kNoWait;
    threshold_sem_.clear();
    all.push_back(values[k] >= thr);
  }
  impl_ok_ = ctx_.all(all);
}

}  // namespace syncbisim::prover::detail
