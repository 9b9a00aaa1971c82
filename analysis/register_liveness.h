#pragma once
// Which registers of an impl hold a value that a later read needs (liveness), per engine: a
// register is live at a point when some path from there reads it before writing it. The
// allocator reuses registers by it (docs/allocator.md "Reusing registers and semaphores") and
// `stats` reports the peak. A loop is taken as running any number of times (none included) and
// either branch of a cond as possible: an over-approximation, so two registers never live at
// once may be counted as interfering, never the reverse, which is the safe side for reuse.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/program.h"

namespace syncbisim::analysis {

struct EngineRegisterLiveness {
  std::string engine;
  // Every register the engine names, in program order of first mention.
  std::vector<std::string> registers;
  // Per register (by position in `registers`): the registers it may not share a cell with (one
  // is live where the other is written, or both are live at the start), sorted, symmetric.
  std::vector<std::vector<std::uint32_t>> interference;
  // Read on some path before any write: the read sees the initial 0 (docs/semantics.md §4).
  std::vector<bool> live_at_entry;
  std::vector<bool> written;
  // The most registers live at one point of the engine's stream.
  std::uint32_t peak_live = 0;
  // The same, per top-level statement of the impl (the points inside it): where a budget below
  // the peak bites (allocator/pressure_fit.h).
  std::vector<std::uint32_t> peak_by_statement;
  // With `zero_before_first_use`: the registers whose initial 0 is read, each with the
  // top-level statement that first names it, before which an `x := 0` was assumed.
  std::vector<std::pair<std::uint32_t, std::size_t>> zeroed;
};

struct LivenessOptions {
  bool interference = true;  // without, the interference lists stay empty
  // Take every register that is written somewhere and whose initial 0 is read as reset to 0
  // just before the top-level statement that first names it (nothing names it earlier, so it
  // holds 0 there anyway): a counter r_ℓ is then live from its nest on, not from the program's
  // start. What a reuse of registers needs (allocator/register_reuse.h) and what `stats` counts.
  bool zero_before_first_use = true;
  // Engines analysed at once, on that many threads (each engine's walk is independent; the
  // result is the same for any number).
  unsigned jobs = 1;
};

// One entry per engine of the impl, in the impl's engine order.
std::vector<EngineRegisterLiveness> register_liveness(const model::Program& impl, const LivenessOptions& options = {});

}  // namespace syncbisim::analysis
