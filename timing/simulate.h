#pragma once
// A deterministic discrete-event timing model of an impl on its engines (GitHub issue 13,
// docs/timing.md). Each engine's sequencer walks its stream in program order: a register
// operation costs ALU cycles, every loop iteration a branch, a datapath instruction is issued
// once its waits hold and its engine's pipeline is free, holds the pipeline for its issue
// interval and retires after its latency, in issue order (paper §3.2); its signal is added at
// retirement. A barrier drains the engine, and once every engine has arrived costs a handshake,
// the reset and a second handshake (paper §8.1). Trips are fixed by a TripPlan.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"
#include "semantics/compiled_program.h"
#include "timing/cost_table.h"
#include "timing/trip_plan.h"

namespace syncbisim::timing {

// One issued datapath instruction (recorded only with SimOptions::record).
struct Instance {
  semantics::InstrId instr = 0;
  semantics::EngineId engine = 0;
  std::uint64_t ready = 0;      // when it could have issued but for its waits
  std::uint64_t stall_end = 0;  // when its waits held (ready == stall_end: no stall)
  std::uint64_t issue = 0;      // later than stall_end while the shared DMA engines are busy
  std::uint64_t busy_end = 0;   // issue + interval
  std::uint64_t retire = 0;
  // After a stall: the instance whose retirement (signal on `cause_sem`) let it issue.
  std::int64_t cause = -1;
  std::int32_t cause_sem = -1;
  std::vector<std::pair<model::LoopId, std::uint32_t>> iters;  // iteration of each enclosing loop
};

struct BarrierEvent {
  std::uint64_t release = 0;           // when every engine goes on
  std::vector<std::uint64_t> reached;  // per engine, when it stood at the barrier
};

struct EngineTime {
  std::string engine;
  std::uint64_t busy = 0;     // pipeline held or sequencer working
  std::uint64_t stalled = 0;  // at a wait whose semaphore is short
  std::uint64_t barrier = 0;  // at a barrier (drain, handshakes, reset)
  std::uint64_t idle = 0;     // the rest of the makespan
  std::uint64_t finish = 0;   // its last retirement or step
};

// The stall cycles one wait caused, over all its issues.
struct StallEntry {
  semantics::InstrId instr = 0;
  semantics::SemId sem = 0;
  std::uint64_t total = 0, count = 0, longest = 0;
};

struct Simulation {
  std::uint64_t makespan = 0;
  double clock_ghz = 0;
  std::vector<EngineTime> engines;
  std::vector<StallEntry> stalls;  // longest total first
  std::uint64_t instrs_issued = 0, regops = 0, branches = 0, barriers = 0;
  bool deadlock = false;
  std::string deadlock_detail;     // who waits for what, when stuck
  // The model stopped at SimOptions::max_steps: the figures are those of the run so far, and
  // nothing is told of a deadlock (the trips make the run too long to finish).
  std::string limit;
  std::vector<std::string> trips;  // TripPlan::describe()
  std::vector<Instance> instances;
  std::vector<BarrierEvent> barrier_events;
  // Per engine, the sequencer's own work (register operations, branches), adjacent runs merged.
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> sequencer;
};

struct SimOptions {
  bool record = false;  // keep every instance and barrier (for pictures)
  // The sequencers' steps (register operations, loop steps, issues) and events the model takes
  // at most: trips of 2^32-1, nested, would take 2^64 steps (Simulation::limit).
  std::uint64_t max_steps = std::uint64_t{1} << 28;
};

// `impl` compiled against its spec's index (semantics::compile with `trips_from`); `costs` by
// (spec) InstrId; `plan` built from the spec.
Simulation simulate(const semantics::CompiledProgram& impl, const std::vector<InstrCost>& costs, const CostTable& table,
                    const TripPlan& plan, const SimOptions& options = {});

// Per InstrId of `spec_ix`, the cost of each instruction from the spec's extra fields.
// The spec's instructions with neither an `op` nor an `interval` field, in program order: their
// cost is the engine class's catch-all entry, which a user most likely did not mean (issue 42).
std::vector<std::string> instrs_without_op(const model::Program& spec);
std::vector<InstrCost> instr_costs(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                   const CostTable& table);

// The whole sequence for a corresponding (spec, impl) pair: trips from `given` and the spec's
// sim_trips, costs from `table`, the impl compiled against the spec. Errors: bad trips.
model::Result<Simulation> simulate_pair(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                        const model::Program& impl, const model::ProgramIndex& impl_ix,
                                        const CostTable& table, const std::map<std::string, std::uint32_t>& given,
                                        const SimOptions& options = {});

}  // namespace syncbisim::timing
