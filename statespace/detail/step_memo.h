#pragma once
// Internal to the expander (statespace/expander.h): a memo of the pieces transitions are made of (docs/checker.md
// "Step memo").
//
// A transition is Lockstep::apply_touching(): a piece `apply_local` (the visible step on engine
// e, then e's own internal steps), and after a choice one piece `settle_engine` per engine that
// may move, in order (statespace/detail/successor.h builds transitions from them). A piece on engine g writes only g's
// part and the global part, and reads only those and one thing more: for a uniform range loop, which choices are
// pending depends on the least and the greatest number of trips any engine has started (Control::known_trip,
// start_trip), counts that sit in the other engines' parts. So the parts a piece leaves behind are a function of the
// piece, g's part id, the global part id, and the least and greatest count among the other engines per uniform range
// loop (the piece's "context"). The explorer meets the same key across many states (the other engines' parts differ),
// and a hit gives the piece's result without decoding, stepping or encoding. An outcome also carries g's new counts,
// from which the next piece's context is worked out.
//
// A commit or a retirement leaves its engine where it was; in a settled state that engine's
// loop control then still has no step, so the context is not read and not part of the key.
// Not remembered: a piece after which its engine has arrived at a barrier (the release depends
// on every engine); that is told by the piece and the engine's part alone, so whether a key may
// be remembered is itself a function of the key. The memo is a cache: it forgets everything
// when it is full and its byte budget does not let it grow, which costs time, never a wrong
// answer (keys are compared whole).
#include <algorithm>
#include <cstdint>
#include <variant>
#include <vector>

#include "semantics/lockstep.h"
#include "statespace/memo_table.h"
#include "statespace/part_table.h"

namespace syncbisim::statespace::detail {

// The pieces a transition is made of: Lockstep::apply_local(step), and
// Lockstep::settle_engine(engine).
struct LocalStep {
  semantics::Step step;
};
struct SettleEngine {
  semantics::EngineId engine = 0;
};
using Piece = std::variant<LocalStep, SettleEngine>;
// The engine a piece moves (and whose part it writes, with the global part).
inline semantics::EngineId engine_of(const Piece& p) {
  if (const auto* l = std::get_if<LocalStep>(&p)) return l->step.engine;
  return std::get<SettleEngine>(p).engine;
}

class StepMemo {
 public:
  using Outcome = MemoOutcome;

  // What find() looked up: the piece's key in the current context, and its outcome if known.
  class Key {
   public:
    const Outcome* known() const { return known_; }

   private:
    friend class StepMemo;
    MemoEntry entry_;  // piece 0: the piece cannot be remembered
    semantics::EngineId engine_ = 0;
    bool in_choice_ = false;  // a piece of a choice's transition
    const Outcome* known_ = nullptr;
  };

  explicit StepMemo(const semantics::Lockstep& both);

  // The state whose transitions are looked up next (the explorer's state being expanded).
  void at_state(const semantics::LockstepState& s);
  // A transition from that state starts.
  void begin() {
    // current_ equals started_ unless moved_: most transitions change no count, and copy nothing.
    if (!moved_) return;
    std::copy(started_.begin(), started_.end(), current_.begin());
    moved_ = false;
  }
  // The key of piece `p`, where the ids of the part of p's engine and of the global part are
  // `part` and `global`, and the outcome if known.
  Key find(const Piece& p, std::uint32_t part, std::uint32_t global);
  // A known outcome of a piece of a choice's transition, on g, is taken, and more pieces
  // follow: g's counts are now its. (Only those outcomes carry counts.)
  void advance(semantics::EngineId g, const Outcome& o);
  // The outcome of the piece whose key find() gave and did not know: `after` is the state it led
  // to, whose ids for g's part and the global part are `part` and `global`. g's counts are now
  // `after`'s; the outcome is remembered unless it may not be.
  void remember(const Key& key, const semantics::LockstepState& after, std::uint32_t part, std::uint32_t global);
  // Can a choice's pieces be remembered? (Their counts must fit in an Outcome: up to six loops.)
  bool follows_choices() const { return shared_loops_.size() <= 6; }
  // The memo may take up to this many bytes (it starts small and doubles within them).
  void budget(std::size_t bytes) { budget_ = bytes; }
  // From now on the memo looks up and remembers in `table`, shared with other threads' memos,
  // and interns its contexts in `contexts`, shared likewise (an interned context's id is part
  // of a key, so every thread must give a context the same id). Both must outlive the memo.
  void share(MemoTable& table, PartTable& contexts);
  // A shared memo: it may insert up to `entries` more until the next call (the threads' shares
  // of the table's room() in a level, so that it never fills up while they use it).
  void allow(std::size_t entries) {
    allowed_ = entries;
    inserted_ = 0;
    refused_ = 0;
  }
  // A shared memo: the entries it inserted since allow(), and those it would have inserted but
  // for its share (with them, what the next level's share should be).
  std::size_t inserted() const { return inserted_; }
  std::size_t refused() const { return refused_; }
  // The bytes of this memo's own tables, unused but there when it shares (a shared table is
  // counted by its owner).
  std::size_t bytes() const { return own_.bytes() + own_contexts_.bytes(); }

 private:
  std::uint64_t context_of(semantics::EngineId g);
  const MemoTable& table() const { return shared_ ? *shared_ : own_; }

  std::vector<semantics::LoopId> shared_loops_;  // uniform range loops
  std::size_t engines_ = 0;
  std::vector<std::uint32_t> started_;  // at_state's trips started, by engine then shared loop
  std::vector<std::uint32_t> current_;  // the same during a transition, after its pieces so far
  bool moved_ = false;                  // current_ may differ from started_ (else they are equal)
  std::vector<std::uint64_t> context_;  // contexts in at_state's state, by engine (kNoContext: not yet)
  PartTable own_contexts_;              // contexts that do not pack into 60 bits
  PartTable* shared_contexts_ = nullptr;
  PartWords words_;
  MemoTable own_;
  MemoTable* shared_ = nullptr;
  std::size_t budget_ = 0;
  std::size_t allowed_ = 0, inserted_ = 0, refused_ = 0;  // a shared memo's inserts: its share, made, refused
};

}  // namespace syncbisim::statespace::detail
