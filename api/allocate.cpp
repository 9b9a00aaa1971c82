// allocate() of the public API: the tool's strategies (docs/allocator.md), with every option of
// `syncbisim allocate` that makes sense in a process (no output files: the programs are values).
#include "allocator/allocate.h"
#include "analysis/unroll.h"
#include "api/detail/program_data.h"
#include "latency/judge.h"
#include "parallel/cores.h"

namespace syncbisim {

namespace {
allocator::Strategy internal(Strategy s) {
  switch (s) {
    case Strategy::Barrier: return allocator::Strategy::Barrier;
    case Strategy::PerInstruction: return allocator::Strategy::PerInstruction;
    case Strategy::PerLoop: return allocator::Strategy::PerLoop;
    case Strategy::PerEngine: return allocator::Strategy::PerEngine;
    case Strategy::Auto: return allocator::Strategy::Auto;
    case Strategy::Expert: return allocator::Strategy::Expert;
    case Strategy::Mixed: return allocator::Strategy::Mixed;
  }
  return allocator::Strategy::Auto;
}

constexpr Strategy kStrategies[] = {Strategy::Barrier, Strategy::PerInstruction, Strategy::PerLoop, Strategy::PerEngine,
                                    Strategy::Auto,    Strategy::Mixed,          Strategy::Expert};

// The public defaults are the allocator's; the header cannot include it to share them.
static_assert(analysis::kDefaultMaxUnroll == 20000, "AllocateOptions::max_unroll's default is allocate's");
}  // namespace

namespace api::detail {
allocator::Strategy strategy_of(Strategy s) { return internal(s); }

Strategy strategy_from(allocator::Strategy s) {
  for (auto x : kStrategies)
    if (internal(x) == s) return x;
  return Strategy::Auto;
}
}  // namespace api::detail

std::string to_string(Strategy s) { return allocator::to_string(internal(s)); }

Strategy parse_strategy(const std::string& name) {
  // The command's parser and its message (allocate --strategy), so the two accept the same names.
  if (const auto s = allocator::parse_strategy(name)) return api::detail::strategy_from(*s);
  throw Error("", "", "usage", "unknown strategy '" + name + "' (" + allocator::strategy_names() + ")");
}

Allocation allocate(const Program& spec, const AllocateOptions& options) {
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  const auto& d = spec.data();
  // --unroll: the spec unrolled first (analysis/unroll.h), as `syncbisim allocate` does.
  std::optional<Program> unrolled;
  if (!options.unroll.empty()) {
    auto u = analysis::unroll(d.program, d.index, options.unroll, options.max_unroll);
    if (!u) api::detail::raise(u.error(), d.name);
    unrolled = api::detail::wrap(std::move(*u), d.name + " (unrolled)");
  }
  const auto& target = unrolled ? unrolled->data() : d;
  allocator::Options o;
  o.strategy = internal(options.strategy);
  o.prune_registers = options.prune_registers;
  o.barrier_fallback = options.barrier_fallback;
  o.licm = options.licm;
  o.cse = options.cse;
  o.share_wait_values = options.share_waits;
  o.max_semaphores = options.max_semaphores;
  o.max_registers = options.max_registers;
  const auto reuse = allocator::parse_reuse(options.reuse);
  if (!reuse) throw Error("", "", "usage", "unknown reuse '" + options.reuse + "' (auto, always, never)");
  o.reuse = *reuse;
  o.jobs = parallel::given_or_every_core(options.jobs);
  o.judge = latency::timing_judge();  // the expert's (allocator/expert.h)
  auto a = allocator::allocate(target.program, target.index, o);
  if (!a) api::detail::raise(a.error(), d.name);
  Allocation out{api::detail::wrap(std::move(a->impl), d.name + " (" + to_string(options.strategy) + ")"),
                 {},
                 {},
                 unrolled,
                 a->exact()};
  for (const auto& dec : a->decisions)
    out.decisions.push_back(Decision{dec.label, allocator::to_string(dec.scheme), dec.semaphore,
                                     dec.wait ? dec.wait->to_string() : "", dec.detail, dec.exact});
  out.notes = a->notes;
  return out;
}

}  // namespace syncbisim
