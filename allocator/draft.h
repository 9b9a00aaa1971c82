#pragma once
// The impl an allocation is building, with the only ways strategies change it: declare a
// semaphore, give an instruction its signal, add a wait (which records the registers it reads on
// the consumer's engine), place a barrier, decide a dependency, add a note. finish() fixes the
// maintained registers and emits the impl.
#include <optional>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "allocator/names.h"
#include "allocator/plan.h"
#include "allocator/reductions.h"
#include "allocator/registers.h"
#include "allocator/spec_facts.h"
#include "allocator/wait_value.h"
#include "model/result.h"

namespace syncbisim::allocator {

class Draft {
 public:
  explicit Draft(const SpecFacts& facts);
  Draft(const Draft&) = delete;
  Draft& operator=(const Draft&) = delete;

  Registers& registers() { return regs_; }
  const Registers& registers() const { return regs_; }

  // A new semaphore, declared in the impl: `prefix + sanitize(raw)`, made unique.
  std::string semaphore(const std::string& prefix, const std::string& raw);
  // `instr` adds 1 to `sem` at its retirement (replacing any signal it had).
  void signal(model::InstrId instr, const std::string& sem);
  // Adds {sem >= threshold} to the consumer (lowered by finish(): a constant threshold directly,
  // otherwise computed into registers, `[w := value] {sem >= w} I` as in paper Figure 7). The
  // loop registers the value's mask and count name are recorded as read on the consumer's
  // engine. Returns the threshold.
  model::Expr add_wait(model::InstrId consumer, const std::string& sem, const WaitValue& value);
  // A barrier in the parent's body before loop `l`'s statement, or at the end of each of its
  // iteration bodies.
  void barrier_before(model::LoopId l, model::Barrier b) { plan_.loops[l].before = std::move(b); }
  void barrier_at_end(model::LoopId l, model::Barrier b) { plan_.loops[l].at_end = std::move(b); }
  // A barrier before statement `stmt` of loop `l`'s body (merged with one already there).
  void barrier_before_stmt(model::LoopId l, std::uint32_t stmt, const model::Barrier& b);
  // A barrier inside a region: per engine, how many of its instructions of the region come first.
  // Cuts of one region are added in order, each with positions at or after the previous one's.
  void cut(std::uint32_t region, std::vector<std::uint32_t> positions) {
    plan_.cuts[region].push_back(std::move(positions));
  }
  std::size_t semaphore_count() const { return plan_.semaphores.size(); }

  // What dependency `dep` got (its label comes from the spec).
  void decide(std::size_t dep, Scheme scheme, std::string semaphore, std::optional<model::Expr> wait,
              std::string detail, bool exact = true);
  void note(std::string text) { notes_.push_back(std::move(text)); }
  // Closes the decisions: every dependency must have one (else an allocator bug, rule
  // `allocator-bug`); decisions() is valid from then on, and nothing may be decided after it.
  model::Status close_decisions();
  const std::vector<Decision>& decisions() const { return closed_; }

  // Fixes the maintained registers (`prune`: only those some wait reads), lowers the waits with
  // the ALU reductions asked for (reductions.h) and emits the impl; closes the decisions first
  // if they are not yet. Once per draft: the allocation takes the decisions and notes.
  model::Result<Allocation> finish(bool prune, const Reductions& reductions);

 private:
  const SpecFacts& facts_;
  NameTable reg_names_, sem_names_;
  Registers regs_;
  Plan plan_;
  std::vector<std::optional<Decision>> decisions_;
  std::vector<Decision> closed_;  // by close_decisions()
  bool closed_yet_ = false;
  std::vector<std::string> notes_;
};

}  // namespace syncbisim::allocator
