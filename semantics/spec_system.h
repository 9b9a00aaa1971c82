#pragma once
// The specification transition system (docs/semantics.md §2-3, paper §4 and §7.1): an instruction
// issues when every dependency it consumes is satisfied, computed from the recorded history of
// loop entries, for any distance vector. Nothing here uses the allocator's closed forms.
#include <cstdint>
#include <string>
#include <vector>

#include "semantics/control.h"

namespace syncbisim::semantics {

// The consumer engine's history for one dependency: at each start of an iteration of S, the
// iteration vector (over the common loops) and how many iterations of P the engine had started
// before it. Σ_{i ⪯ t} H_e(i, P) is then the count before the first recorded S-iteration after
// t, or the live count when t is the latest (docs/semantics.md derives this). Records that no
// future target can reach are dropped, so the history stays as long as the window needs.
// The records lie back to back, each the vector's words (one per common loop) and then the
// count, so that copying a history is copying one block of words.
using History = SmallVec<std::uint32_t, 12>;

struct SpecState {
  ControlState control;
  SmallVec<std::uint32_t, 32> retired;              // R, by InstrId
  SmallVec<SmallVec<std::uint32_t, 8>, 6> entries;  // per engine, by LoopId: iterations started (tracked loops only)
  SmallVec<History, 16> history;                    // by dependency
  bool operator==(const SpecState&) const = default;
  std::uint64_t hash() const;
};

// One dependency checked at a consumer's issue point, with the numbers behind the verdict.
struct DependencyCheck {
  std::uint32_t dep = 0;             // index into CompiledProgram::deps
  SmallVec<std::int64_t, 6> target;  // t = v - distance, over the common loops
  bool underflow = false;            // some component of t <= 0: nothing is owed
  std::uint64_t retired = 0;         // R(producer)
  std::uint64_t owed = 0;            // Σ_{i ⪯ t} H_e(i, P) (0 on underflow)
  bool satisfied() const { return underflow || retired >= owed; }
};

class SpecSystem {
 public:
  SpecSystem(const CompiledProgram& p, Options o = {});

  SpecState initial() const;
  // Every enabled step of every engine (a range trip's choices as one run: semantics/steps.h;
  // expanded() there has every choice its own step).
  void enabled(const SpecState& s, Steps& out) const;
  // Enabled steps of one engine.
  void enabled(const SpecState& s, EngineId e, Steps& out) const;
  void apply(SpecState& s, const Step& st) const;

  // Is the engine's next op a datapath instruction whose dependencies all hold?
  bool can_issue(const SpecState& s, EngineId e) const;
  // The checks behind can_issue for the engine's next instruction.
  std::vector<DependencyCheck> explain(const SpecState& s, EngineId e) const;
  bool all_finished(const SpecState& s) const;

  const Control& control() const { return control_; }
  const CompiledProgram& program() const { return control_.program(); }
  // Does engine e count its iterations of loop l (l is the P of a dependency consumed on e)?
  bool tracked(EngineId e, LoopId l) const { return tracked_[e][l] != 0; }

 private:
  DependencyCheck check(const SpecState& s, EngineId e, std::uint32_t dep) const;
  // check(s, e, dep).satisfied() without building the check (can_issue is on every hot path).
  bool satisfied(const SpecState& s, EngineId e, std::uint32_t dep) const;
  void record_entry(SpecState& s, EngineId e, LoopId l) const;
  // A history record's vector against the consumer's target t = v - distance now (⪯).
  static int compare_to_target(const std::uint32_t* record, const SmallVec<Frame, 8>& frames, const CompiledDep& d);

  Control control_;
  std::vector<std::vector<std::uint8_t>> tracked_;  // per engine, by LoopId: P of a dependency consumed there
  std::vector<std::vector<std::vector<std::uint32_t>>> recorded_at_;  // per engine, by LoopId S: deps consumed there
};

}  // namespace syncbisim::semantics
