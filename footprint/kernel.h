#pragma once
// A spec with footprints seen as a loop nest (docs/footprints.md): the instructions that touch
// memory, each with the loops around it, its place in program order and its accesses. Both the
// all-trips analysis (derive.h, on ISL) and the enumerator at concrete trips (enumerate.h) read
// this table; neither reads the other.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::footprint {

struct KernelLoop {
  std::string name;
  std::uint32_t min_trip = 0, max_trip = 0;  // over every trip the rule allows
  model::Choice rule = model::ConstTrip{0};   // the trip rule (uniform: divergent ones are refused)
};

// Flow (RAW), anti (WAR), output (WAW) and accumulate hazards between an earlier access and a
// later one of one element.
enum class Hazard : std::uint8_t { RAW, WAR, WAW };
const char* to_string(Hazard h);
// The hazard between an earlier access of kind `a` and a later one of kind `b`, or none (two
// reads, or two accumulates, which commute).
std::optional<Hazard> hazard_between(model::AccessKind a, model::AccessKind b);

struct KernelAccess {
  model::AccessKind kind = model::AccessKind::Read;
  model::Access access;
  std::vector<std::uint64_t> shape;  // the buffer's
};

struct Statement {
  model::InstrId instr = 0;
  std::string name;
  model::EngineId engine = 0;
  std::vector<std::size_t> loops;  // indices into Kernel::loops, outermost first (no @top)
  std::size_t position = 0;        // program order among all instructions of the tree
  std::vector<KernelAccess> accesses;
};

// Per dimension, the half-open range [lo, hi) of elements an access touches at one instance of
// its statement (`iter`: one 0-based iteration number per loop of the statement). A range may be
// empty (lo >= hi): it touches nothing.
using ElementBox = std::vector<std::pair<std::int64_t, std::int64_t>>;
struct Kernel;
ElementBox elements_at(const Kernel& k, const Statement& s, const KernelAccess& a, const std::vector<std::int64_t>& iter);

struct Kernel {
  std::vector<std::string> engines;
  std::vector<KernelLoop> loops;
  std::vector<Statement> statements;  // every instruction, in program order (position = index)
  std::map<std::string, std::size_t> by_name;

  // `p` is a validated spec (ProgramIndex::build succeeded, so check_footprints held).
  static Kernel of(const model::Program& p, const model::ProgramIndex& ix);

  // The loops around both, outermost first: the common prefix of their loop lists.
  std::vector<std::size_t> common_loops(const Statement& a, const Statement& b) const;
};

}  // namespace syncbisim::footprint
