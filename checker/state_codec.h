#pragma once
// Compact encoding of a lock-step product state (issue 5, "State storage"). The state splits
// into one chunk per engine and one global chunk; each chunk is a short sequence of 32-bit
// words. Chunks repeat across states far more than whole states do, so the explorer interns
// them (checker/chunk_table.h) and stores a state as one chunk id per part ("tree compression"
// in the manner of LTSmin). What is left out is what nothing reads: the retirement counts of
// instructions that produce for no dependency, and the trip counts of loops whose rule does not
// depend on the trip index. Both sides' control (frames, trips started, in-flight lists, uniform
// choices) is equal in a lock-step state, so it is stored once.
#include <cstdint>
#include <vector>

#include "semantics/lockstep.h"

namespace syncbisim::checker {

class StateCodec {
 public:
  explicit StateCodec(const semantics::Lockstep& both);

  std::size_t parts() const { return engines_ + 1; }  // engine chunks, then the global chunk
  // Appends the words of part `i` of `s` to `out`.
  void encode_part(const semantics::LockstepState& s, std::size_t i, std::vector<std::uint32_t>& out) const;
  // Rebuilds a state from its parts' words (parts() spans, in order).
  semantics::LockstepState decode(const semantics::SmallVec<const std::uint32_t*, 8>& parts) const;

 private:
  void encode_engine(const semantics::LockstepState& s, semantics::EngineId e, std::vector<std::uint32_t>& out) const;
  void encode_global(const semantics::LockstepState& s, std::vector<std::uint32_t>& out) const;
  const std::uint32_t* decode_engine(semantics::LockstepState& s, semantics::EngineId e, const std::uint32_t* w) const;
  void decode_global(semantics::LockstepState& s, const std::uint32_t* w) const;

  const semantics::Lockstep* both_;
  std::size_t engines_ = 0;
  std::size_t loops_ = 0;
  std::vector<semantics::LoopId> counted_loops_;  // loops whose trips_started matter
  std::vector<semantics::LoopId> shared_choice_loops_;  // uniform range loops (pending choices)
  std::vector<semantics::InstrId> producers_;     // instructions whose R is read
  std::vector<std::vector<semantics::LoopId>> tracked_;   // per engine: loops whose entries count
  std::vector<std::vector<std::uint32_t>> deps_of_engine_;  // per engine: deps it consumes
  semantics::LockstepState blank_;                 // sizes of every vector, all zero
};

}  // namespace syncbisim::checker
