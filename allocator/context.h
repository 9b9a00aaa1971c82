#pragma once
// The state one allocation run shares between the strategy files.
#include <map>
#include <utility>
#include <vector>

#include "allocator/allocate.h"
#include "allocator/body_counts.h"
#include "allocator/names.h"
#include "allocator/plan.h"
#include "allocator/registers.h"
#include "analysis/body_position.h"
#include "analysis/dependency_analysis.h"

namespace syncbisim::allocator {

struct Context {
  const model::Program& spec;
  const model::ProgramIndex& ix;
  Options options;
  analysis::DependencyAnalysis analysis;
  analysis::BodyLayout layout;
  BodyCounts counts;
  NameTable reg_names, sem_names;
  Registers regs;
  Plan plan;
  std::vector<Decision> decisions;
  std::vector<std::string> notes;
  std::map<std::pair<model::LoopId, model::EngineId>, std::string> loop_sems;  // per_loop.cpp

  Context(const model::Program& s, const model::ProgramIndex& i, Options o)
      : spec(s),
        ix(i),
        options(o),
        analysis(analysis::analyze_dependencies(s, i)),
        layout(analysis::layout_of(s, i)),
        counts(count_bodies(s, i)),
        regs(i, reg_names),
        plan(i) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const analysis::DependencyInfo& dep(std::size_t d) const { return analysis.deps[d]; }
  // A new semaphore, declared in the impl.
  std::string semaphore(const std::string& prefix, const std::string& raw) {
    auto n = sem_names.fresh(prefix, raw);
    plan.semaphores.push_back(n);
    return n;
  }
  // Adds {sem >= value} to the consumer: a constant threshold directly, otherwise computed into
  // a temporary right before it, `[w := value] {sem >= w} I` (paper Figure 7).
  void add_wait(model::InstrId consumer, const std::string& sem, const model::Expr& value);
  // The mask isgt(rh_S, k) of paper §5.5 eq. (3)/(5), or nullopt when rh_S is elided.
  std::optional<model::Expr> mask(model::LoopId S, std::uint32_t k, model::EngineId e);
};

// "I3 -> I2 {A: 2}"
std::string dep_label(const model::Dependency& d);

// Strategy steps (one file each).
void allocate_barrier_baseline(Context& ctx);                                       // barrier_baseline.cpp
void allocate_per_instruction(Context& ctx, const std::vector<std::size_t>& deps);  // per_instruction.cpp
// per_loop.cpp: the semaphore of a (loop, engine) pair, created on first use, signalled by every
// instruction of that engine directly in the loop's body (paper §5.5).
const std::string& loop_semaphore(Context& ctx, model::LoopId l, model::EngineId e);
void declare_all_loop_semaphores(Context& ctx);
// `why` is appended to each decision (e.g. why per-engine gave the dependency per-loop).
void allocate_per_loop(Context& ctx, const std::vector<std::size_t>& deps, const std::string& why = "");
void allocate_per_engine(Context& ctx, const std::vector<std::size_t>& deps);  // per_engine.cpp
void allocate_fallback(Context& ctx, const std::vector<std::size_t>& deps);    // fallback.cpp

}  // namespace syncbisim::allocator
