#pragma once
// Resource figures of an impl program (docs/semantics.md §7, paper Table 1 and 2), computed from the
// program text alone, so they apply to hand-written impls too. docs/allocator.md defines each.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::allocator {

// The byte model for code size (docs/allocator.md).
struct ByteModel {
  std::uint32_t instr = 16, annotation = 8, regop = 8, per_operator = 4, barrier = 16, loop = 8, cond = 16;
};

// A count of executed things: exact up to 2^64 - 1, and past that it says so instead of wrapping
// (three nested loops of 2^32 - 1 trips already pass it). Sums and products are checked.
struct Count {
  std::uint64_t value = 0;  // exact when `fits`
  bool fits = true;
  Count& operator+=(const Count& o);
  friend Count operator*(const Count& a, const Count& b);
  bool operator==(std::uint64_t v) const { return fits && value == v; }
  bool operator==(const Count&) const = default;
  // "12", or "more than 18446744073709551615"
  std::string to_string() const;
};

// What is live at once at most (docs/allocator.md "Reusing registers and semaphores"): per engine
// the registers (analysis/register_liveness.h, a counter whose initial 0 is read counted from the
// top-level statement that first names it), and the semaphores, each counted from the first
// top-level statement that signals or waits on it to the last. What a reuse by liveness could
// bring the totals down to, at best.
struct LiveFigures {
  std::vector<std::pair<std::string, std::size_t>> registers_per_engine;
  std::size_t registers_max = 0;
  std::size_t semaphores = 0;
};
LiveFigures live_figures(const model::Program& impl);

struct Stats {
  std::size_t semaphores = 0;
  std::vector<std::pair<std::string, std::size_t>> registers_per_engine;  // distinct registers used
  std::size_t registers_max = 0;
  std::size_t waiting_instrs = 0;  // instructions with at least one wait
  std::size_t waits = 0;
  std::size_t multi_wait_instrs = 0;  // instructions with more than one wait
  std::uint32_t alu_max = 0;          // ALU operations computing the waits before one issue
  double alu_mean = 0;
  Count regops_executed;    // over all engines, for the given trips
  Count barriers_executed;  // barrier instances (each synchronizes every engine)
  Count instrs_executed;
  std::uint64_t code_bytes = 0;
  std::vector<std::string> assumptions;  // e.g. "loop A: 3 iterations per trip (maximum)"
  std::optional<LiveFigures> live;       // when asked for (live_figures(): a walk per engine)
};

// The registers each engine names (written, read by an operation or by a wait), by the impl's
// engine order: Stats::registers_per_engine, and a budget trial's count (allocator/budget.h).
std::vector<std::size_t> registers_per_engine(const model::Program& impl);

// `trips`: loop id -> iterations per trip; cond id -> 0 (then) or 1 (else). Loops not given run
// their maximum trip; conds take `then` unless their rule only allows `else`. `impl` must be a
// valid program (ProgramIndex::build accepts it); the figures need no index of it, which matters
// where one spec is allocated many times (docs/allocator.md "Complexity").
model::Result<Stats> compute_stats(const model::Program& impl, const std::map<std::string, std::uint32_t>& trips,
                                   const ByteModel& bytes = {});

// Parses "A=3,B=4,C=else" (rule "bad-trips").
model::Result<std::map<std::string, std::uint32_t>> parse_trips(const std::string& text);

}  // namespace syncbisim::allocator
