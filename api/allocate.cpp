// allocate() of the public API: the tool's strategies (docs/allocator.md).
#include "allocator/allocate.h"

#include "api/detail/program_data.h"
#include "latency/judge.h"

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
  }
  return allocator::Strategy::Auto;
}
}  // namespace

namespace api::detail {
allocator::Strategy strategy_of(Strategy s) { return internal(s); }
}  // namespace api::detail

std::string to_string(Strategy s) { return allocator::to_string(internal(s)); }

Strategy parse_strategy(const std::string& name) {
  for (auto s : {Strategy::Barrier, Strategy::PerInstruction, Strategy::PerLoop, Strategy::PerEngine, Strategy::Auto,
                 Strategy::Expert})
    if (to_string(s) == name) return s;
  throw Error("", "", "usage",
              "unknown strategy '" + name + "' (barrier, per-instruction, per-loop, per-engine, auto, expert)");
}

Allocation allocate(const Program& spec, const AllocateOptions& options) {
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  const auto& d = spec.data();
  allocator::Options o{internal(options.strategy), options.prune_registers};
  o.judge = latency::timing_judge(d.program, d.index);  // the expert's (allocator/expert.h)
  auto a = allocator::allocate(d.program, d.index, o);
  if (!a) {
    auto e = a.error();
    if (e.file.empty()) e.file = d.name;
    api::detail::raise(e);
  }
  Allocation out{api::detail::wrap(std::move(a->impl), d.name + " (" + to_string(options.strategy) + ")"), {}, {}};
  for (const auto& dec : a->decisions)
    out.decisions.push_back(Decision{dec.label, allocator::to_string(dec.scheme), dec.semaphore,
                                     dec.wait ? dec.wait->to_string() : "", dec.detail});
  out.notes = a->notes;
  return out;
}

}  // namespace syncbisim
