#pragma once
// What is wrong at a state (docs/semantics.md §5), each violation recorded once per (kind,
// engine, instruction) with the trace that reached it first. Every search classifies the states
// it expands with it: the checker's, random walks, and syncbisim-mpi's ranks (distributed/).
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "checker/check_result.h"
#include "semantics/lockstep.h"

namespace syncbisim::checker {

// Can the spec alone still make progress from a state where the pair is stuck? It may stand at
// a loop head the impl has not reached (the impl waits at a barrier before it): walk the spec's
// control steps and choices and see whether some engine gets to issue or all finish. The walk
// keeps at most kSpecProgressStates states; past that the answer is unknown.
enum class SpecProgress : std::uint8_t { Progresses, Stuck, Unknown };
constexpr std::size_t kSpecProgressStates = 100000;
inline SpecProgress spec_can_progress(const semantics::SpecSystem& spec, const semantics::SpecState& start) {
  struct ByHash {
    std::size_t operator()(const semantics::SpecState& s) const { return s.hash(); }
  };
  // Whole states, not their hashes: two states with one hash must not hide each other's way on.
  std::vector<semantics::SpecState> todo{start};
  std::unordered_set<semantics::SpecState, ByHash> seen;
  semantics::Steps steps;
  // A fan-out (a range of 2^32 trips) is pushed only as far as the walk could go: past that, a
  // walk that ends without progress says Unknown, not Stuck.
  bool cut = false;
  while (!todo.empty()) {
    if (seen.size() >= kSpecProgressStates) return SpecProgress::Unknown;
    auto s = std::move(todo.back());
    todo.pop_back();
    if (!seen.insert(s).second) continue;
    if (spec.all_finished(s)) return SpecProgress::Progresses;
    steps.clear();
    spec.enabled(s, steps);
    using semantics::StepKind;
    for (const auto& run : steps.runs())
      if (run.first.kind == StepKind::Issue || run.first.kind == StepKind::Retire || run.first.kind == StepKind::Commit)
        return SpecProgress::Progresses;
    for (const semantics::Step st : steps) {
      if (todo.size() + seen.size() > kSpecProgressStates) {
        cut = true;
        break;
      }
      auto next = s;
      spec.apply(next, st);
      todo.push_back(std::move(next));
    }
  }
  return cut ? SpecProgress::Unknown : SpecProgress::Stuck;
}

// Identifies a violation for deduplication and for the search of a shorter trace: its kind,
// engine, and instruction (an overflow: its register operation, or its semaphore with the top
// bit set).
using ViolationKey = std::tuple<ViolationKind, semantics::EngineId, std::uint32_t>;
inline ViolationKey key_of_overflow(const Violation& v) {
  const auto& o = v.overflow;
  return {v.kind, v.engine, o.kind == semantics::OverflowKind::Semaphore ? 0x80000000U | o.sem : o.regop};
}
inline ViolationKey key_of(const Violation& v) {
  if (v.kind == ViolationKind::Overflow) return key_of_overflow(v);
  return {v.kind, v.engine, v.instr ? *v.instr + 1 : 0U};
}

class Classifier {
 public:
  explicit Classifier(const semantics::Lockstep& both) : both_(&both) {}

  // Records the violations at state `s`, if new: `mismatches` are the state's, as
  // Lockstep::visible() found them with `steps`. `trace` is called only for new ones.
  void classify(const semantics::LockstepState& s, const semantics::Steps& steps,
                std::vector<semantics::Mismatch>& mismatches,
                const std::function<std::vector<semantics::Step>()>& trace) {
    // An overflow ends the execution (visible() gave no step and no mismatch): the finding is
    // the overflow, not a deadlock (docs/semantics.md "Widths").
    if (both_->impl().overflowed(s.impl)) [[unlikely]] {
      for (const auto& o : both_->impl().overflows(s.impl)) {
        Violation v;
        v.kind = ViolationKind::Overflow;
        v.engine = o.engine;
        v.overflow = o;
        if (!seen_.insert(key_of_overflow(v)).second) continue;
        v.trace = trace();
        found_.push_back(std::move(v));
      }
      return;
    }
    for (auto& m : mismatches) {
      if (m.undecided) {  // the spec's walk past a barrier was cut: the limit is named
        limits_.insert("ahead-of-barrier " + std::to_string(semantics::Lockstep::kAheadStates) + " spec states");
        continue;
      }
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
    for (semantics::EngineId e = 0; e < spec.program().engine_count(); ++e)
      if (!both_->impl().control().finished(s.impl.control, e) || !spec.control().finished(s.spec.control, e))
        v.stuck.push_back(e);
    v.engine = v.stuck.empty() ? 0 : v.stuck.front();
    const auto& op = spec.control().next_op(s.spec.control, v.engine);
    if (op.kind == semantics::OpKind::Instr) v.instr = op.a;
    const auto progress = spec_can_progress(spec, s.spec);
    v.spec_deadlocks_too = progress == SpecProgress::Stuck;
    if (progress == SpecProgress::Unknown) {
      v.spec_search_cut = true;
      limits_.insert("spec-progress " + std::to_string(kSpecProgressStates) + " spec states");
    }
    const auto key = std::make_tuple(ViolationKind::Deadlock, v.engine, v.instr ? *v.instr + 1 : 0U);
    if (!seen_.insert(key).second) return;
    v.trace = trace();
    found_.push_back(std::move(v));
  }

  std::vector<Violation>& found() { return found_; }
  // The limits that cut a walk of the spec's own steps (each makes the search inconclusive).
  const std::set<std::string>& limits() const { return limits_; }
  // Names them in `r`, which then is not exhaustive.
  void add_limits(CheckResult& r) const {
    for (const auto& l : limits_) add_limit(r, l);
  }

 private:
  const semantics::Lockstep* both_;
  std::set<std::tuple<ViolationKind, semantics::EngineId, std::uint32_t>> seen_;
  std::vector<Violation> found_;
  std::set<std::string> limits_;
};

}  // namespace syncbisim::checker
