#include "allocator/allocate.h"

#include "allocator/context.h"
#include "allocator/share_waits.h"
#include "analysis/correspondence.h"

namespace syncbisim::allocator {

const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::Barrier: return "barrier";
    case Strategy::PerInstruction: return "per-instruction";
    case Strategy::PerLoop: return "per-loop";
    case Strategy::PerEngine: return "per-engine";
    case Strategy::Auto: return "auto";
  }
  return "?";
}

std::optional<Strategy> parse_strategy(const std::string& s) {
  for (auto st : all_strategies())
    if (s == to_string(st)) return st;
  return std::nullopt;
}

std::vector<Strategy> all_strategies() {
  return {Strategy::Barrier, Strategy::PerInstruction, Strategy::PerLoop, Strategy::PerEngine, Strategy::Auto};
}

model::Result<Allocation> allocate(const model::Program& spec, const model::ProgramIndex& ix, const Options& options) {
  if (spec.kind != model::ProgramKind::Spec)
    return model::make_error("", "wrong-kind", "allocate needs a spec program");
  Context ctx(spec, ix, options);
  ctx.decisions.resize(spec.deps.size());
  for (std::size_t d = 0; d < spec.deps.size(); ++d)
    ctx.decisions[d] = Decision{d, dep_label(spec.deps[d]), "", "", {}, ""};
  for (const auto& dl : ctx.analysis.deadlocks) ctx.notes.push_back("spec deadlock: " + dl.message);

  if (options.strategy == Strategy::Barrier) {
    allocate_barrier_baseline(ctx);
    ctx.regs.finalize(true);  // the baseline adds no registers
  } else {
    std::vector<std::size_t> ok, fallback;
    for (std::size_t d = 0; d < spec.deps.size(); ++d) (ctx.dep(d).allocatable() ? ok : fallback).push_back(d);
    // paper §5.1: rh_S only for loops carrying a dependency with offset k > 0
    for (auto d : ok)
      if (ctx.dep(d).offset > 0) ctx.regs.want_trip_register(ctx.dep(d).S);
    switch (options.strategy) {
      case Strategy::PerInstruction: allocate_per_instruction(ctx, ok); break;
      case Strategy::PerEngine: allocate_per_engine(ctx, ok); break;
      default:
        declare_all_loop_semaphores(ctx);
        allocate_per_loop(ctx, ok);
        break;
    }
    allocate_fallback(ctx, fallback);
    if (!fallback.empty())
      ctx.notes.push_back(std::to_string(fallback.size()) +
                          " dependencies are not allocatable (paper §5.2) and use non-resetting barriers");
    ctx.regs.finalize(options.prune_registers);
  }
  Allocation out{emit_impl(spec, ix, ctx.plan, ctx.regs), std::move(ctx.decisions), std::move(ctx.notes)};
  if (options.share_wait_values)
    if (const auto n = share_wait_values(out.impl); n > 0)
      out.notes.push_back(std::to_string(n) + " subexpressions of wait values shared (paper §6.2)");
  // The impl must be a valid program that corresponds to the spec: anything else is our bug.
  auto impl_ix = model::ProgramIndex::build(out.impl);
  if (!impl_ix) return model::make_error("", "allocator-bug", "emitted impl is invalid: " + impl_ix.error().message);
  if (auto s = analysis::check_correspondence(spec, ix, out.impl, *impl_ix); !s)
    return model::make_error("", "allocator-bug", "emitted impl does not correspond: " + s.error().message);
  return out;
}

}  // namespace syncbisim::allocator
