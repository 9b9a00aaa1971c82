#pragma once
// Internal to the expander (statespace/expander.h): the tuples of part ids of a state's successors (docs/checker.md,
// "State storage" and "Step memo"). The builder holds the state being expanded twice: as the
// tuple and the words of its parts, and decoded in one working state, in which each successor
// the step memo cannot give is built in turn. It owns the one record of where the working state
// differs from the words (`dirty_`), so undoing a successor decodes only the parts it touched, and
// only when the next step needs the decoded state.
#include <cstdint>
#include <vector>

#include "semantics/lockstep.h"
#include "statespace/detail/step_memo.h"
#include "statespace/part_table.h"
#include "statespace/state_codec.h"

namespace syncbisim::statespace::detail {

class SuccessorBuilder {
 public:
  // `parts` interns the parts of every state built; it must outlive the builder.
  SuccessorBuilder(const semantics::Lockstep& both, const StateCodec& codec, PartTable& parts);

  // The tuple of a state built from nothing (the initial state): every part encoded.
  const std::vector<std::uint32_t>& encode(const semantics::LockstepState& s);
  // Makes the state whose tuple is `tuple` the one expanded next, and returns it decoded. Parts
  // whose ids equal those of the state expanded before are not read again (consecutive states
  // in breadth-first order share most parts).
  const semantics::LockstepState& load(const std::uint32_t* tuple);
  // The tuple of the loaded state's successor by visible step `st`.
  const std::vector<std::uint32_t>& build(const semantics::Step& st);

  StepMemo& memo() { return memo_; }
  const StepMemo& memo() const { return memo_; }

 private:
  // A piece of the transition being built: from the memo while every piece so far came from it,
  // else run on work_ (and its outcome remembered).
  void take(const Piece& p);
  // work_ from the loaded state to the one after the pieces taken so far (all from the memo).
  void start_stepping();
  // Runs a piece on work_; did its engine's part change?
  bool run(const Piece& p);
  // After a barrier release every engine has moved: each part is encoded again.
  void encode_all();
  // Decodes the dirty parts from the loaded state's words into work_.
  void bring();

  const semantics::Lockstep& both_;
  const StateCodec& codec_;
  PartTable& parts_;
  StepMemo memo_;
  const std::size_t global_;  // codec_.global_part()

  // The state being expanded: its tuple, the words of each part, and the engines at a loop
  // head (only they may move when settling after a choice: the state is settled, and other
  // engines' pieces change nothing else such an engine's settling reads unless it stands at a
  // loop head, since a register operation, a barrier arrival or a back edge would have been
  // taken already).
  std::vector<std::uint32_t> loaded_;
  std::vector<PartWords> loaded_words_;
  PartSet waiting_;
  // The state being built: the loaded state decoded, then changed by the pieces run on it.
  semantics::LockstepState work_;
  PartSet dirty_;  // parts where work_ may differ from loaded_words_
  // The transition being built: its tuple so far, its pieces so far, whether they run on work_.
  std::vector<std::uint32_t> tuple_;
  std::vector<Piece> taken_;
  bool stepping_ = false;
  bool choice_ = false;
  PartWords words_;
};

}  // namespace syncbisim::statespace::detail
