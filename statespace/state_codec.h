#pragma once
// Compact encoding of a lock-step product state (docs/checker.md, "State storage"). The state splits
// into one part per engine and one global part; each part is a short sequence of 32-bit words.
// Parts repeat across states far more than whole states do, so the explorer interns them
// (statespace/part_table.h) and stores a state as one part id per part ("tree compression" in the
// manner of LTSmin). What is left out is what nothing reads: the retirement counts of
// instructions that produce for no dependency, the trip counts of loops whose rule does not
// depend on the trip index, and the registers an engine never writes. Both sides' control
// (frames, trips started, in-flight lists, uniform choices) is equal in a lock-step state, so it
// is stored once. Register and semaphore values take one word below 2^31, three otherwise. An
// engine's barrier arrival and its overflow (docs/semantics.md "Widths") share one word.
// A retirement count, and a semaphore that only one engine's instructions signal, can change
// only by a step of that engine (or a barrier release, which touches every part): they belong
// to that engine's part, so that a retirement changes its own engine's part alone. The global
// part keeps the semaphores several engines signal and the pending uniform choices.
#include <cstdint>
#include <vector>

#include "semantics/engine_set.h"
#include "semantics/lockstep.h"
#include "statespace/part_words.h"

namespace syncbisim::statespace {

// A set of a state's parts: engine e's part is number e, the global part comes last.
using PartSet = semantics::EngineSet;

class StateCodec {
 public:
  explicit StateCodec(const semantics::Lockstep& both);

  std::size_t parts() const { return engines_ + 1; }  // engine parts, then the global part
  std::size_t global_part() const { return engines_; }
  // The words of part `i` of `s`.
  void encode_part(const semantics::LockstepState& s, std::size_t i, PartWords& out) const;
  // Every vector sized, all zero: the shape decode() expects.
  const semantics::LockstepState& blank() const { return blank_; }
  // Overwrites `s` (a copy of blank() or an earlier decode: decoding into the same state again
  // copies nothing else) with the state whose parts' words are `parts`, in order.
  void decode(const semantics::SmallVec<const std::uint32_t*, 8>& parts, semantics::LockstepState& s) const;
  // decode() of part `i` alone: the other parts of `s` stay as they are. Fields no part encodes
  // are never read (see above), so they may keep whatever `s` held.
  void decode_part(std::size_t i, const std::uint32_t* words, semantics::LockstepState& s) const;

 private:
  void encode_engine(const semantics::LockstepState& s, semantics::EngineId e, PartWords& out) const;
  void encode_global(const semantics::LockstepState& s, PartWords& out) const;
  const std::uint32_t* decode_engine(semantics::LockstepState& s, semantics::EngineId e, const std::uint32_t* w) const;
  void decode_global(semantics::LockstepState& s, const std::uint32_t* w) const;

  const semantics::Lockstep* both_;
  std::size_t engines_ = 0;
  std::size_t loops_ = 0;
  std::vector<semantics::LoopId> counted_loops_;             // loops whose trips_started matter
  std::vector<semantics::LoopId> shared_choice_loops_;       // uniform range loops (pending choices)
  std::vector<std::vector<semantics::InstrId>> producers_;   // per engine: its instructions whose R is read
  std::vector<std::vector<semantics::SemId>> own_sems_;      // per engine: semaphores only it signals
  std::vector<semantics::SemId> shared_sems_;                // the other semaphores
  std::vector<std::vector<semantics::RegId>> written_regs_;  // per engine: registers its register operations write
  std::vector<std::vector<semantics::LoopId>> tracked_;      // per engine: loops whose entries count
  std::vector<std::vector<std::uint32_t>> deps_of_engine_;   // per engine: deps it consumes
  semantics::LockstepState blank_;                           // sizes of every vector, all zero
};

}  // namespace syncbisim::statespace
