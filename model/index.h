#pragma once
// The symbol table of a program: dense ids for engines, loops (branch loops and @top included),
// instructions, semaphores and registers, with the tree relations everyone needs. Building it
// checks the rules of docs/formats.md "Bad input" that are about names and references.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/detail/name_ids.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::model {

using EngineId = std::uint16_t;
using LoopId = std::uint32_t;  // 0 is @top
using InstrId = std::uint32_t;
using SemId = std::uint32_t;
using RegId = std::uint32_t;

inline constexpr LoopId kTop = 0;

enum class LoopKind : std::uint8_t { Top, Loop, CondThen, CondElse };

struct LoopInfo {
  std::string name;
  LoopKind kind = LoopKind::Loop;
  LoopId parent = kTop;          // kTop for @top itself
  std::uint32_t depth = 0;       // @top is 0
  std::string cond;              // for CondThen/CondElse: the cond id
  std::optional<TripRule> trip;  // the loop's rule; for a branch loop the cond's `taken` rule
  Loc loc;
};

struct InstrInfo {
  std::string name;
  EngineId engine = 0;
  LoopId parent = kTop;  // the innermost loop around it (paper: its parent loop)
  Loc loc;
};

class ProgramIndex {
 public:
  // Validates names and references and builds the table. `p` must outlive nothing: the index
  // copies what it keeps.
  static Result<ProgramIndex> build(const Program& p);

  std::vector<std::string> engines;
  std::vector<LoopInfo> loops;    // loops[0] is @top; then in pre-order of the tree
  std::vector<InstrInfo> instrs;  // in pre-order of the tree, engine streams in file order
  std::vector<std::string> semaphores;
  std::vector<std::string> registers;  // every register name read or written, first-use order

  std::optional<EngineId> engine(const std::string& name) const;
  std::optional<LoopId> loop(const std::string& name) const;
  std::optional<InstrId> instr(const std::string& name) const;
  std::optional<SemId> semaphore(const std::string& name) const;
  std::optional<RegId> reg(const std::string& name) const;

  // Loops from @top down to `l`, both included.
  std::vector<LoopId> path(LoopId l) const;
  // True if `outer` is `inner` or one of its ancestors.
  bool encloses(LoopId outer, LoopId inner) const;
  // Innermost loop enclosing both.
  LoopId common(LoopId a, LoopId b) const;

 private:
  // Each table's ids name the entries of the vector above (name_ids.h keeps no copy of a name).
  detail::NameIds engine_ids_;
  detail::NameIds loop_ids_;
  detail::NameIds instr_ids_;
  detail::NameIds sem_ids_;
  detail::NameIds reg_ids_;
  auto engine_name() const {
    return [this](std::uint32_t id) -> const std::string& { return engines[id]; };
  }
  auto loop_name() const {
    return [this](std::uint32_t id) -> const std::string& { return loops[id].name; };
  }
  auto instr_name() const {
    return [this](std::uint32_t id) -> const std::string& { return instrs[id].name; };
  }
  auto semaphore_name() const {
    return [this](std::uint32_t id) -> const std::string& { return semaphores[id]; };
  }
  auto register_name() const {
    return [this](std::uint32_t id) -> const std::string& { return registers[id]; };
  }
  friend class IndexBuilder;
};

}  // namespace syncbisim::model
