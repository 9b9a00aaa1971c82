#pragma once
// The strategy steps, one file each. Each reads the spec's facts and changes the draft only
// through its interface (draft.h); state a strategy keeps for itself lives in its own type.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "allocator/draft.h"
#include "allocator/spec_facts.h"

namespace syncbisim::allocator {

// barrier_baseline.cpp: paper §3.4, every dependency.
void allocate_barrier_baseline(const SpecFacts& facts, Draft& draft);

// per_instruction.cpp: paper §5.3, one semaphore per producer of `deps`.
void allocate_per_instruction(const SpecFacts& facts, Draft& draft, const std::vector<std::size_t>& deps);

// per_loop.cpp: the semaphore of a (loop, engine) pair, declared on first use and signalled by
// every instruction of that engine directly in the loop's body (paper §5.5).
class LoopSemaphores {
 public:
  LoopSemaphores(const SpecFacts& facts, Draft& draft) : facts_(facts), draft_(draft) {}
  const std::string& of(model::LoopId l, model::EngineId e);
  // Every pair with an instruction, as the paper's Figure 8 does (s1 there has no consumer).
  void declare_all();

 private:
  const SpecFacts& facts_;
  Draft& draft_;
  std::map<std::pair<model::LoopId, model::EngineId>, std::string> names_;
};
// `why` is appended to each decision (e.g. why per-engine gave the dependency per-loop).
void allocate_per_loop(const SpecFacts& facts, Draft& draft, LoopSemaphores& sems, const std::vector<std::size_t>& deps,
                       const std::string& why = "");

// per_engine.cpp: the decode of paper §6.1 (docs/allocator.md): X such that s_E >= X iff the
// producer instance the consumer needs has retired, when the instructions with counted[i]
// (those of the producer's engine signal s_E) are what s_E counts; or why there is none.
struct EngineDecode {
  std::optional<model::Expr> value;  // X, unmasked
  std::string why_not;
};
// The instructions an engine's semaphore counts (`counted[i]`), indexed once for every decode:
// per engine and loop, the statement positions and body ranks of the counted instructions
// directly in that loop, sorted, so a decode counts by binary search instead of scanning the
// program (a scan per dependency is quadratic in a long block: docs/allocator.md "Complexity").
//
// Segmented (docs/allocator.md "The per-engine decode", "Many top-level statements"): an engine
// has one semaphore per top-level statement (a segment) that holds its counted instructions, and
// a decode counts only the producer's segment, so it reads the registers of that segment's loops
// instead of every earlier loop's.
class CountedInstrs {
 public:
  CountedInstrs(const SpecFacts& facts, const std::vector<bool>& counted, bool segmented = false);
  bool counted(model::InstrId i) const { return counted_[i]; }
  bool segmented() const { return segmented_; }
  bool divergent() const { return divergent_; }  // some loop's trips differ across engines
  // The top-level statement holding instruction i (segmented), 0 otherwise.
  std::uint32_t segment_of(model::InstrId i) const { return segmented_ ? instr_segment_[i] : 0; }
  // The loops a decode for a producer of that segment counts: every loop, or @top and the
  // segment's loops.
  const std::vector<model::LoopId>& loops_of(std::uint32_t segment) const {
    return segmented_ ? segment_loops_[segment] : all_loops_;
  }
  // Counted instructions of engine e directly in loop l at a statement before `stmt`.
  std::uint64_t before_stmt(model::EngineId e, model::LoopId l, std::uint32_t stmt) const;
  // Those whose rank among e's direct instructions of l (BodyCounts::k) is at most `k`.
  std::uint64_t up_to_rank(model::EngineId e, model::LoopId l, std::uint32_t k) const;
  // Engine e's instructions directly in loop l no longer counted: the same index as one built
  // with them not counted, without building it again (the per-engine decode drops one such pair
  // at a time, thousands of times on a kernel of thousands of nests).
  void uncount(model::EngineId e, model::LoopId l);

 private:
  const SpecFacts* facts_;
  std::vector<bool> counted_;
  std::vector<std::vector<std::vector<std::uint32_t>>> stmts_, ranks_;  // [engine][loop], sorted
  bool segmented_ = false, divergent_ = false;
  std::vector<std::uint32_t> instr_segment_;
  std::vector<std::vector<model::LoopId>> segment_loops_;
  std::vector<model::LoopId> all_loops_;
};
EngineDecode decode_engine(const SpecFacts& facts, const Registers& regs, const analysis::DependencyInfo& d,
                           const CountedInstrs& counted);
// paper §6.1; dependencies it cannot decode go per-loop through `sems`. `segmented`: one
// semaphore per engine and top-level statement (CountedInstrs).
void allocate_per_engine(const SpecFacts& facts, Draft& draft, LoopSemaphores& sems,
                         const std::vector<std::size_t>& deps, bool segmented = false);

// fallback.cpp: non-resetting barriers for dependencies that are not allocatable.
void allocate_fallback(const SpecFacts& facts, Draft& draft, const std::vector<std::size_t>& deps);

}  // namespace syncbisim::allocator
