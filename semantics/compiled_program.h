#pragma once
// A program lowered for execution: each engine's walk of the common tree becomes a flat code
// array (paper §7.1: every engine runs the same SCFG on its own stream). Loops become a head
// (the guard: trip start, iteration start, exit) and a back edge; a cond becomes its two branch
// loops C.then and C.else whose trips (1/0) come from one branch choice (docs/semantics.md §1).
// Consecutive blocks need nothing: an engine only sees its own stream, so "block completion"
// is the fall-through from one op to the next.
#include <cstdint>
#include <string>
#include <vector>

#include "model/dependency_shape.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::semantics {

using model::EngineId;
using model::InstrId;
using model::LoopId;
using model::RegId;
using model::SemId;

enum class OpKind : std::uint8_t { Instr, RegOp, Barrier, LoopHead, LoopBack, End };

struct Op {
  OpKind kind = OpKind::End;
  std::uint32_t a = 0;  // Instr: InstrId; RegOp/Barrier: index into the tables; LoopHead/LoopBack: LoopId
  std::uint32_t b = 0;  // LoopHead: pc after the loop; LoopBack: pc of the head
};

// How an evaluation ended (docs/semantics.md "Widths"): every value it computes (each constant,
// each operator's result, the result) fits the width; or one does not, and is `out`; or one
// passes 2^64 - 1, what the tool represents (no `out` then).
enum class EvalStatus : std::uint8_t { Ok, PastWidth, PastU64 };

// Expression with registers resolved to ids, evaluated on one engine's register file.
struct CompiledExpr {
  struct Node {
    model::ExprOp op;
    std::uint64_t value;  // Const
    RegId reg;            // Reg
    std::uint32_t lhs, rhs;
  };
  std::vector<Node> nodes;
  // The value on the engine's register file (by RegId) into `out`, every value computed on the
  // way held to `max` (the register width's largest value: the engine's ALU computes in
  // registers): PastWidth with the first value past it in `out`; PastU64 when an operator's
  // value passes 2^64 - 1 (model::apply_op: checked, never wrapped).
  EvalStatus eval(const std::uint64_t* regs, std::uint64_t max, std::uint64_t& out) const;
  // The same at no width but the tool's own: false past 2^64 - 1.
  bool eval(const std::uint64_t* regs, std::uint64_t& out) const {
    return eval(regs, UINT64_MAX, out) == EvalStatus::Ok;
  }
  // Recognizes the shapes most register operations have (a constant, `r + c`: the counters
  // of paper §5.4), which eval() then computes without walking the nodes. Call after the
  // nodes are complete; without it every expression is walked.
  void find_shape();

 private:
  enum class Shape : std::uint8_t { Nodes, Const, RegPlusConst };
  EvalStatus run(const std::uint64_t* regs, std::uint64_t max, std::uint64_t* val,
                 std::uint64_t& out) const;  // val: a slot per node
  Shape shape_ = Shape::Nodes;
  RegId reg_ = 0;
  std::uint64_t constant_ = 0;
};

struct CompiledWait {
  SemId sem = 0;
  bool reg_threshold = false;  // threshold is a register of the waiting engine
  RegId reg = 0;
  std::uint64_t value = 0;  // constant threshold
};

struct CompiledInstr {
  std::string name;
  EngineId engine = 0;
  LoopId parent = model::kTop;
  std::vector<CompiledWait> waits;  // impl
  bool has_signal = false;          // impl
  SemId signal_sem = 0;
  std::uint32_t signal_add = 0;
};

struct CompiledRegOp {
  RegId dst = 0;
  CompiledExpr expr;
  std::string text;  // "dst := expr", for traces
};

struct CompiledBarrier {
  bool reset_all = true;
  std::vector<SemId> reset;
};

struct CompiledLoop {
  std::string name;
  model::LoopKind kind = model::LoopKind::Loop;
  LoopId parent = model::kTop;
  LoopId then_sibling = model::kTop;  // for a CondElse loop: its CondThen loop
  bool divergent = false;             // per-engine rule: each engine chooses on its own (paper §7.5)
  std::vector<model::Choice> rule;    // per engine (uniform rules repeat one choice)
  // True when the trip count is not determined by the trip index: the rule is a range on some
  // engine. Such trips are explicit nondeterministic choice steps.
  bool chosen = false;
  // True when the k-th trip depends on k (a sequence rule): engines then count their trips.
  bool indexed = false;
  std::uint32_t max_trip = 0;
};

// A dependency with everything the spec check needs (docs/semantics.md §2): its place in the tree.
struct CompiledDep : model::DependencyShape {
  std::size_t index = 0;  // in Program::deps
};

struct CompiledProgram {
  model::ProgramKind kind = model::ProgramKind::Spec;
  std::vector<std::string> engines;
  std::vector<std::string> semaphores;
  std::vector<std::string> registers;
  std::vector<CompiledLoop> loops;    // by LoopId; loops[0] is @top
  std::vector<CompiledInstr> instrs;  // by InstrId
  std::vector<CompiledRegOp> regops;
  std::vector<CompiledBarrier> barriers;
  std::vector<std::vector<Op>> code;                         // per engine; ends with End
  std::vector<CompiledDep> deps;                             // spec
  std::vector<std::vector<std::uint32_t>> deps_of_consumer;  // InstrId -> indices into deps
  std::vector<std::vector<std::uint32_t>> deps_recorded_at;  // LoopId S -> deps whose S it is

  std::size_t engine_count() const { return engines.size(); }
  std::size_t loop_count() const { return loops.size(); }
};

// Lowers a validated program (its index built). An impl is lowered against its spec's index
// (`trips_from`, nullptr for a spec): loops without a trip rule take the spec's, and
// instructions get the spec's ids. Throws std::invalid_argument if the two do not correspond.
CompiledProgram compile(const model::Program& p, const model::ProgramIndex& ix,
                        const model::ProgramIndex* trips_from = nullptr);

}  // namespace syncbisim::semantics
